//! One declarative table per page's state, as TensorFlow Playground keeps one: each row
//! says a value's key in the link, its bounds or its choices, and where it lives in the
//! state. The same rows parse a link (clamping out-of-range values and saying so),
//! give the sliders their bounds and steps, and write the link back. A page's own rule
//! that ties values together (queries ≤ needles, even heads) runs after its table.

use super::query::read_clamped;
use crate::tr;

/// Key–value pairs of a link, in order.
pub type Pairs = Vec<(String, String)>;

/// How a number's slider moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SliderScale {
    Linear,
    /// The slider moves log₂ of the value (sequence lengths double).
    Log2,
}

/// When the link carries a value.
pub enum InLink<S: 'static> {
    Always,
    /// Only away from the page's default state (short links for the common case).
    AwayFromDefault,
    /// When the state says so (`v2_scale` only while V2's λ is scaled).
    When(fn(&S) -> bool),
}

impl<S: Default> InLink<S> {
    fn holds<T: PartialEq>(&self, s: &S, value: impl Fn(&S) -> T) -> bool {
        match self {
            InLink::Always => true,
            InLink::AwayFromDefault => value(s) != value(&S::default()),
            InLink::When(f) => f(s),
        }
    }
}

fn nothing<S>(_: &mut S) {}

/// Rows are plain data (numbers, names and function pointers), copied freely whatever
/// the state they describe (a derive would ask the state to be `Copy` too).
macro_rules! copy_rows {
    ($($t:ident),*) => {$(
        impl<S> Clone for $t<S> {
            fn clone(&self) -> Self {
                *self
            }
        }
        impl<S> Copy for $t<S> {}
    )*};
}
copy_rows!(InLink, Knob, Choice, Text, Field);

fn plain(v: f64) -> String {
    format!("{v}")
}

/// A number within bounds, shown as a slider (or a number box).
pub struct Knob<S: 'static> {
    /// The key in the link.
    pub key: &'static str,
    /// The control's id (the key, unless an older id is kept).
    pub id: &'static str,
    /// Its label's key in the catalogue.
    pub label_key: &'static str,
    pub min: f64,
    pub max: f64,
    /// One slider step, in slider units (log₂ units for [`SliderScale::Log2`]).
    pub step: f64,
    pub scale: SliderScale,
    /// Whole numbers only: a link's "3.5" or "-3" is not a valid value.
    pub integer: bool,
    pub get: fn(&S) -> f64,
    put: fn(&mut S, f64),
    /// The value as a student reads it beside the slider.
    pub show: fn(f64) -> String,
    /// What a control's move also changes, to keep the state consistent (not run when a
    /// link is read: the page's rule after the table says what a link got wrong).
    after: fn(&mut S),
    in_link: InLink<S>,
}

impl<S: 'static> Knob<S> {
    /// A number in `[min, max]`, linear, one step of `step`, always in the link.
    pub const fn new(key: &'static str, label_key: &'static str, (min, max): (f64, f64), step: f64, get: fn(&S) -> f64, put: fn(&mut S, f64)) -> Self {
        Self { key, id: key, label_key, min, max, step, scale: SliderScale::Linear, integer: false, get, put, show: plain, after: nothing::<S>, in_link: InLink::Always }
    }

    pub const fn integer(self) -> Self {
        Self { integer: true, ..self }
    }

    pub const fn log2(self) -> Self {
        Self { scale: SliderScale::Log2, ..self }
    }

    pub const fn id(self, id: &'static str) -> Self {
        Self { id, ..self }
    }

    pub const fn shown(self, show: fn(f64) -> String) -> Self {
        Self { show, ..self }
    }

    pub const fn after(self, after: fn(&mut S)) -> Self {
        Self { after, ..self }
    }

    pub const fn in_link(self, in_link: InLink<S>) -> Self {
        Self { in_link, ..self }
    }

    /// Its label, in the language on screen.
    pub fn label(&self) -> String {
        tr!(self.label_key)
    }

    /// The slider's range, in slider units.
    pub fn slider_range(&self) -> (f64, f64) {
        match self.scale {
            SliderScale::Linear => (self.min, self.max),
            SliderScale::Log2 => (self.min.log2(), self.max.log2()),
        }
    }

    /// The slider's position for a state.
    pub fn position(&self, s: &S) -> f64 {
        let v = (self.get)(s);
        if self.scale == SliderScale::Log2 {
            v.log2()
        } else {
            v
        }
    }

    /// Sets the knob from a slider's position, inside its bounds, and keeps the rest of
    /// the state consistent with it.
    pub fn slide(&self, s: &mut S, position: f64) {
        let v = if self.scale == SliderScale::Log2 { 2f64.powf(position) } else { position };
        self.set(s, v);
    }

    /// Sets the knob to `v`, inside its bounds, and keeps the rest of the state consistent.
    pub fn set(&self, s: &mut S, v: f64) {
        let v = if self.integer { v.round() } else { v };
        (self.put)(s, v.clamp(self.min, self.max));
        (self.after)(s);
    }

    /// Reads a link's (or a typed) value under the knob's bounds, with a notice for
    /// anything adjusted or refused.
    pub fn read(&self, s: &mut S, raw: &str, notices: &mut Vec<String>) {
        if self.integer {
            let mut v = (self.get)(s) as u64;
            read_clamped(self.key, raw, (self.min as u64, self.max as u64), &mut v, notices);
            (self.put)(s, v as f64);
        } else {
            let mut v = (self.get)(s) as f32;
            read_clamped(self.key, raw, (self.min as f32, self.max as f32), &mut v, notices);
            // Kept to the link's precision (four decimals), so the link it writes back
            // describes the same state: 1e-41 would otherwise be held but written as 0.
            (self.put)(s, ((v as f64) * 1e4).round() / 1e4);
        }
    }

    /// The value as the link writes it: `3`, `0.8`, `-0.25`.
    pub fn write(&self, s: &S) -> String {
        let v = (self.get)(s);
        if self.integer {
            format!("{}", v as u64)
        } else {
            short(v)
        }
    }
}

/// A number as short as it reads, to four decimals: 0.8 rather than 0.800000011920929.
pub fn short(v: f64) -> String {
    let s = format!("{v:.4}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".into()
    } else {
        s.to_string()
    }
}

/// One of a few named values (`view=compare`, `v1_norm=off`, `bits=8`).
pub struct Choice<S: 'static> {
    pub key: &'static str,
    /// The value as the link names it.
    pub get: fn(&S) -> String,
    /// Sets the named value; false if the name is none of the choices.
    set: fn(&mut S, &str) -> bool,
    /// What the page says of a name that is none of the choices.
    refused: fn(&S, &str) -> String,
    /// Every name it accepts, as a link writes it.
    options: fn() -> Vec<String>,
    in_link: InLink<S>,
}

impl<S: 'static> Choice<S> {
    /// `options` names every value `set` accepts (checked for each page's table by
    /// `tests::every_row_accepts_what_it_says`).
    pub const fn new(key: &'static str, options: fn() -> Vec<String>, get: fn(&S) -> String, set: fn(&mut S, &str) -> bool, refused: fn(&S, &str) -> String) -> Self {
        Self { key, get, set, refused, options, in_link: InLink::Always }
    }

    pub const fn in_link(self, in_link: InLink<S>) -> Self {
        Self { in_link, ..self }
    }
}

/// A list or free text, read and written by its own functions (`v1_lambda=,0.3`,
/// `prompt=…`); `write` gives `None` when the link leaves it out.
pub struct Text<S: 'static> {
    pub key: &'static str,
    read: fn(&mut S, &str, &mut Vec<String>),
    write: fn(&S) -> Option<String>,
    /// Values it reads without a word, and values it refuses or adjusts with a notice,
    /// as examples (its syntax is its own): checked here, and what the browser tests'
    /// random links use.
    accepts: &'static [&'static str],
    refuses: &'static [&'static str],
}

impl<S: 'static> Text<S> {
    pub const fn new(key: &'static str, read: fn(&mut S, &str, &mut Vec<String>), write: fn(&S) -> Option<String>) -> Self {
        Self { key, read, write, accepts: &[], refuses: &[] }
    }

    pub const fn examples(self, accepts: &'static [&'static str], refuses: &'static [&'static str]) -> Self {
        Self { accepts, refuses, ..self }
    }
}

/// What a row of a page's table accepts in a link, as data: what the browser tests make
/// their random links from (`examples/link_tables.rs` prints every page's), so the
/// tables are written once, here.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Accepts {
    /// A number in `[min, max]` (a whole one where `integer`); outside is clamped, with a notice.
    /// `log2`: its slider moves log₂ of the value (sequence lengths).
    Number { key: &'static str, min: f64, max: f64, integer: bool, log2: bool },
    /// One of `options`; anything else is refused, with a notice.
    Choice { key: &'static str, options: Vec<String> },
    /// Text in the row's own syntax: examples of what it reads and what it refuses.
    Text { key: &'static str, accepts: Vec<&'static str>, refuses: Vec<&'static str> },
}

/// Each row of `table` as [`Accepts`], in the table's order.
pub fn accepts<S>(table: &[Field<S>]) -> Vec<Accepts> {
    table
        .iter()
        .map(|f| match f {
            Field::Number(k) => Accepts::Number { key: k.key, min: k.min, max: k.max, integer: k.integer, log2: k.scale == SliderScale::Log2 },
            Field::Choice(c) => Accepts::Choice { key: c.key, options: (c.options)() },
            Field::Text(t) => Accepts::Text { key: t.key, accepts: t.accepts.to_vec(), refuses: t.refuses.to_vec() },
        })
        .collect()
}

/// Checks that each row of `table` reads what [`accepts`] says without a notice naming
/// its key, and gives one for what it says is refused (a number outside its bounds, a
/// name none of the options, a text example it refuses); returns what did not hold.
pub fn check_accepts<S: Default + 'static>(table: &[Field<S>]) -> Vec<String> {
    let mut wrong = vec![];
    let mut expect = |key: &str, raw: String, notice: bool| {
        let (_, notes) = read_link(table, &[(key.to_string(), raw.clone())]);
        if notes.is_empty() == notice {
            wrong.push(format!("{key}={raw}: {}", if notice { "no notice".to_string() } else { notes.join("; ") }));
        }
    };
    for row in accepts(table) {
        match row {
            Accepts::Number { key, min, max, integer, .. } => {
                let step = if integer { 1.0 } else { (max - min) / 8.0 };
                expect(key, short(min), false);
                expect(key, short(max), false);
                expect(key, short(max + step), true);
                expect(key, short(min - step), true);
            }
            Accepts::Choice { key, options } => {
                assert!(!options.is_empty(), "{key} names its options");
                options.iter().for_each(|o| expect(key, o.clone(), false));
                expect(key, "zz-none-of-them".into(), true);
                // Names are exact: another case is none of them.
                options.iter().map(|o| o.to_uppercase()).filter(|o| !options.contains(o)).for_each(|o| expect(key, o, true));
            }
            Accepts::Text { key, accepts, refuses } => {
                accepts.iter().for_each(|v| expect(key, v.to_string(), false));
                refuses.iter().for_each(|v| expect(key, v.to_string(), true));
            }
        }
    }
    wrong
}

/// One row of a page's table.
pub enum Field<S: 'static> {
    Number(Knob<S>),
    Choice(Choice<S>),
    Text(Text<S>),
}

impl<S: Default + 'static> Field<S> {
    pub fn key(&self) -> &'static str {
        match self {
            Field::Number(k) => k.key,
            Field::Choice(c) => c.key,
            Field::Text(t) => t.key,
        }
    }

    fn read(&self, s: &mut S, raw: &str, notices: &mut Vec<String>) {
        match self {
            Field::Number(k) => k.read(s, raw, notices),
            Field::Choice(c) => {
                if !(c.set)(s, raw) {
                    notices.push((c.refused)(s, raw));
                }
            }
            Field::Text(t) => (t.read)(s, raw, notices),
        }
    }

    fn write(&self, s: &S) -> Option<String> {
        match self {
            Field::Number(k) => k.in_link.holds(s, |s| k.write(s)).then(|| k.write(s)),
            Field::Choice(c) => c.in_link.holds(s, c.get).then(|| (c.get)(s)),
            Field::Text(t) => (t.write)(s),
        }
    }
}

/// Reads a link with `table`: the default state with the link's values applied, and a
/// notice for each value that was clamped, unreadable or unknown.
pub fn read_link<S: Default + 'static>(table: &[Field<S>], params: &[(String, String)]) -> (S, Vec<String>) {
    let mut s = S::default();
    let mut notices = vec![];
    for (key, raw) in params {
        match table.iter().find(|f| f.key() == key) {
            Some(field) => field.read(&mut s, raw, &mut notices),
            None => notices.push(tr!("note-unknown", key = key.as_str())),
        }
    }
    (s, notices)
}

/// The link of `s`: each row of `table` the link carries, in the table's order.
pub fn write_link<S: Default + 'static>(table: &[Field<S>], s: &S) -> Pairs {
    table.iter().filter_map(|f| f.write(s).map(|v| (f.key().to_string(), v))).collect()
}

/// A picked row (`row=12`): a number below `rows`; one that is not a number leaves the
/// default row, and says so (the lab's and the explorer's rule).
pub fn read_row(raw: &str, rows: usize, notices: &mut Vec<String>) -> Option<usize> {
    if raw.trim().parse::<usize>().is_err() {
        notices.push(tr!("note-row-not-number", raw = raw));
        return None;
    }
    let mut row = 0usize;
    read_clamped("row", raw, (0, rows - 1), &mut row, notices);
    Some(row)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Debug, Default, PartialEq)]
    struct Toy {
        n: usize,
        x: f32,
        mode: bool,
        words: Vec<String>,
    }

    const N: Knob<Toy> = Knob::<Toy>::new("n", "knob-n", (16.0, 4096.0), 0.5, |s| s.n as f64, |s, v| s.n = v as usize).integer().log2();
    const X: Knob<Toy> = Knob::<Toy>::new("x", "knob-lambda", (-1.0, 2.0), 0.01, |s| s.x as f64, |s, v| s.x = v as f32).in_link(InLink::AwayFromDefault);
    const TABLE: [Field<Toy>; 4] = [
        Field::Number(N),
        Field::Number(X),
        Field::Choice(Choice::<Toy>::new(
            "mode",
            || vec!["on".into(), "off".into()],
            |s| if s.mode { "on" } else { "off" }.into(),
            |s, v| {
                matches!(v, "on" | "off") && {
                    s.mode = v == "on";
                    true
                }
            },
            |_, raw| format!("no mode {raw}"),
        )),
        Field::Text(
            Text::<Toy>::new(
                "words",
                |s, raw, n| match raw.is_empty() {
                    true => n.push("no words".into()),
                    false => s.words = raw.split(',').map(str::to_string).collect(),
                },
                |s| (!s.words.is_empty()).then(|| s.words.join(",")),
            )
            .examples(&["a", "a,b"], &[""]),
        ),
    ];

    #[test]
    fn one_table_reads_clamps_and_writes_every_kind_of_value() {
        let s = Toy { n: 1024, x: -0.25, mode: true, words: vec!["a".into(), "b".into()] };
        let link = write_link(&TABLE, &s);
        assert_eq!(super::super::query::format(&link), "n=1024&x=-0.25&mode=on&words=a%2Cb");
        assert_eq!(read_link(&TABLE, &link), (s, vec![]));
        assert_eq!(write_link(&TABLE, &Toy::default()).len(), 2, "x at its default and no words: left out");
        let (t, notes) = read_link(&TABLE, &super::super::query::parse("n=3.5&x=9&mode=maybe&zzz=1&n=99999"));
        assert_eq!((t.n, t.x, t.mode), (4096, 2.0, false));
        assert_eq!(notes.len(), 5, "{notes:?}");
        assert!(notes[2].contains("no mode maybe"), "{notes:?}");
    }

    #[test]
    fn a_table_says_what_it_accepts_and_the_check_holds_it_to_that() {
        assert_eq!(check_accepts(&TABLE), Vec::<String>::new());
        let rows = accepts(&TABLE);
        assert_eq!(rows[0], Accepts::Number { key: "n", min: 16.0, max: 4096.0, integer: true, log2: true });
        assert_eq!(rows[2], Accepts::Choice { key: "mode", options: vec!["on".into(), "off".into()] });
        // A row that claims more than it reads is caught.
        let lying = [Field::Text(Text::<Toy>::new("words", |_, _, _| {}, |_| None).examples(&[], &["anything"]))];
        assert_eq!(check_accepts(&lying), ["words=anything: no notice"]);
        let json = serde_json::to_string(&rows[1]).unwrap();
        assert_eq!(json, r#"{"kind":"number","key":"x","min":-1.0,"max":2.0,"integer":false,"log2":false}"#);
    }

    #[test]
    fn a_slider_moves_within_the_table_s_bounds() {
        let mut s = Toy::default();
        assert_eq!(N.slider_range(), (4.0, 12.0));
        N.slide(&mut s, 9.0);
        assert_eq!((s.n, N.position(&s)), (512, 9.0));
        N.slide(&mut s, 30.0);
        assert_eq!(s.n, 4096);
        X.set(&mut s, -7.0);
        assert_eq!(s.x, -1.0);
        assert_eq!((short(0.800000011920929), short(-0.00001), short(3.0)), ("0.8".into(), "0".into(), "3".into()));
    }
}
