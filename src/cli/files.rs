//! Reading and writing the tool's files safely: only regular files are read (a FIFO
//! would block forever), an output never replaces one of the inputs, and an output is
//! written beside its target and renamed into place only once it is complete.

use std::fs;
use std::path::{Path, PathBuf};

/// The bytes of a regular file; `flag` names where the path came from in messages.
pub fn read_regular(path: &Path, flag: &str) -> Result<Vec<u8>, String> {
    let meta = fs::metadata(path).map_err(|e| format!("{flag} {}: cannot read it: {e}", path.display()))?;
    if !meta.is_file() {
        let what = if meta.is_dir() { "a directory" } else { "not a regular file (a FIFO, socket or device)" };
        return Err(format!("{flag} {} is {what}; give a .safetensors file", path.display()));
    }
    fs::read(path).map_err(|e| format!("{flag} {}: cannot read it: {e}", path.display()))
}

/// Where a path points once links and `..` are resolved, also for a file that does not
/// exist yet (its folder resolved, its name kept).
fn resolved(path: &Path) -> Option<PathBuf> {
    if let Ok(p) = fs::canonicalize(path) {
        return Some(p);
    }
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    Some(fs::canonicalize(parent).ok()?.join(path.file_name()?))
}

/// Refuses an output path that is a folder, a device or one of the inputs
/// (`--out x.safetensors --input x.safetensors` would replace the input).
pub fn refuse_overwriting(out: &Path, inputs: &[(&str, &Path)]) -> Result<(), String> {
    if let Ok(meta) = fs::metadata(out) {
        if meta.is_dir() {
            return Err(format!("--out {} is a directory; name a file to write", out.display()));
        }
        // A device or FIFO would be replaced by the renamed file, not written to.
        if !meta.is_file() {
            return Err(format!("--out {} is not a regular file (a device, FIFO or socket); name a file to write", out.display()));
        }
    }
    let Some(target) = resolved(out) else { return Ok(()) };
    for (flag, input) in inputs {
        if resolved(input).as_deref() == Some(target.as_path()) {
            return Err(format!("--out {} is the same file as {flag}; writing it would destroy the input, so choose another --out", out.display()));
        }
    }
    Ok(())
}

/// Writes `path` through `write`, which receives a temporary path in the same folder;
/// the temporary file is renamed over `path` only when `write` succeeded, and removed
/// when it failed, so a full disk or an error never leaves a partial file behind.
pub fn write_atomic(path: &Path, write: impl FnOnce(&Path) -> Result<(), String>) -> Result<(), String> {
    let name = path.file_name().ok_or_else(|| format!("--out {}: not a file name", path.display()))?;
    let temp = path.with_file_name(format!(".{}.{}.partial", name.to_string_lossy(), std::process::id()));
    let done = write(&temp).and_then(|()| fs::rename(&temp, path).map_err(|e| format!("cannot move the finished output to {}: {e}", path.display())));
    if done.is_err() {
        let _ = fs::remove_file(&temp);
    }
    done
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("difflens-files-{name}-{}", std::process::id()));
        fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn a_failed_write_leaves_neither_the_target_nor_a_partial_file() {
        let d = dir("atomic");
        let target = d.join("out.safetensors");
        let err = write_atomic(&target, |tmp| {
            let mut f = fs::File::create(tmp).unwrap();
            f.write_all(&[7u8; 1 << 20]).unwrap();
            Err("no space left on device".into())
        });
        assert_eq!(err, Err("no space left on device".into()));
        assert_eq!(fs::read_dir(&d).unwrap().count(), 0, "nothing is left in the folder");
        fs::write(&target, b"old").unwrap();
        let _ = write_atomic(&target, |tmp| fs::write(tmp, b"half").map_err(|e| e.to_string()).and(Err("failed".into())));
        assert_eq!(fs::read(&target).unwrap(), b"old", "a failed run keeps the previous output");
        write_atomic(&target, |tmp| fs::write(tmp, b"new").map_err(|e| e.to_string())).unwrap();
        assert_eq!(fs::read(&target).unwrap(), b"new");
        assert_eq!(fs::read_dir(&d).unwrap().count(), 1);
    }

    #[test]
    fn an_output_may_not_replace_an_input_or_be_a_folder() {
        let d = dir("same");
        let x = d.join("x.safetensors");
        fs::write(&x, b"x").unwrap();
        let dotted = d.join(".").join("x.safetensors");
        assert!(refuse_overwriting(&dotted, &[("--input", &x)]).unwrap_err().contains("same file as --input"));
        assert!(refuse_overwriting(&d, &[("--input", &x)]).unwrap_err().contains("is a directory"));
        assert!(refuse_overwriting(&d.join("new.safetensors"), &[("--input", &x)]).is_ok());
        assert!(read_regular(&d, "--weights").unwrap_err().contains("a directory"));
        assert!(refuse_overwriting(Path::new("/dev/null"), &[]).unwrap_err().contains("not a regular file"));
    }
}
