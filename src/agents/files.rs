//! Writing an agent's configuration files safely: a timestamped backup first, then an atomic replace that keeps the file's permissions.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use crate::error::Error;

/// The file's text, `None` when it does not exist.
pub fn read_optional(path: &Path) -> Result<Option<String>, Error> {
    match fs::read(path) {
        Ok(bytes) => String::from_utf8(bytes)
            .map(Some)
            .map_err(|_| Error::State {
                path: path.display().to_string(),
                message: "not UTF-8 text".into(),
            }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(source) => Err(io_error(path, source)),
    }
}

/// Replaces `path` with `text`: the old file is copied to a timestamped
/// backup beside it, and the new text is written to a temporary file in
/// the same directory and renamed over it, so a crash leaves the old file
/// or the new one, never half of either. Returns the backup's path.
///
/// A symlinked file (dotfiles kept in a repository) is written through:
/// the link stays and its target gets the new text.
pub fn replace(path: &Path, text: &str) -> Result<Option<PathBuf>, Error> {
    write(path, text, true)
}

/// [`replace`] for a file that is warden's alone (the plugin it installs
/// in OpenCode): what it held was warden's, so no backup is kept.
pub fn replace_own(path: &Path, text: &str) -> Result<(), Error> {
    write(path, text, false).map(|_| ())
}

fn write(path: &Path, text: &str, keep_old: bool) -> Result<Option<PathBuf>, Error> {
    let linked = fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
    let resolved;
    let path = if linked {
        resolved = fs::canonicalize(path).map_err(|e| io_error(path, e))?;
        resolved.as_path()
    } else {
        path
    };
    let dir = path.parent().unwrap_or(Path::new("."));
    fs::create_dir_all(dir).map_err(|e| io_error(dir, e))?;
    let old = fs::metadata(path).ok();
    let backup = match &old {
        Some(_) if keep_old => {
            let backup = backup_path(path, SystemTime::now());
            fs::copy(path, &backup).map_err(|e| io_error(&backup, e))?;
            Some(backup)
        }
        _ => None,
    };
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let temp = dir.join(format!(".{name}.warden-{}.tmp", std::process::id()));
    let written = (|| {
        let mut file = fs::File::create(&temp)?;
        file.write_all(text.as_bytes())?;
        if let Some(meta) = &old {
            file.set_permissions(meta.permissions())?;
        }
        file.sync_all()?;
        fs::rename(&temp, path)
    })();
    if let Err(source) = written {
        let _ = fs::remove_file(&temp);
        return Err(io_error(path, source));
    }
    Ok(backup)
}

/// Removes `path`, a file that holds nothing of the person's: what warden
/// wrote there is all it held, so no backup is kept (one would be a file
/// warden made and left behind). Its directory goes too when that leaves
/// it empty: install makes an agent's directory when there was none, and
/// an empty one holds nothing of anyone's.
pub fn remove(path: &Path) -> Result<Option<PathBuf>, Error> {
    match fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(io_error(path, e)),
        _ => {
            if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                // Fails, as it should, while anything is left in it.
                let _ = fs::remove_dir(dir);
            }
            Ok(None)
        }
    }
}

/// Whether the file name `name` is one of warden's backups of an agent's
/// file (see [`replace`]).
pub fn is_backup(name: &str) -> bool {
    name.contains(".warden-backup-")
}

/// `<file>.warden-backup-<UTC timestamp>`; a second backup in the same
/// second gets a counter rather than overwriting the first.
fn backup_path(path: &Path, now: SystemTime) -> PathBuf {
    let stamp = timestamp(now);
    let base = format!("{}.warden-backup-{stamp}", path.display());
    let mut candidate = PathBuf::from(&base);
    let mut n = 1;
    while candidate.exists() {
        n += 1;
        candidate = PathBuf::from(format!("{base}-{n}"));
    }
    candidate
}

/// `YYYYMMDDTHHMMSSZ` in UTC, for file names.
pub fn timestamp(now: SystemTime) -> String {
    let [year, month, day, hour, minute, second] = civil(now);
    format!("{year:04}{month:02}{day:02}T{hour:02}{minute:02}{second:02}Z")
}

/// ISO 8601 in UTC as Python's `datetime.fromtimestamp(os.path.getmtime(f))
/// .isoformat()` writes it, with `Z` (Hermes compares these strings). Python
/// holds the time as a float (`sec + nsec * 1e-9`) and rounds its fraction
/// to microseconds half to even, which is not always the nearest
/// microsecond of the exact time; this does the same sums. Microseconds are
/// shown only when there are any.
pub fn iso_utc(at: SystemTime) -> String {
    let since = at.duration_since(UNIX_EPOCH).unwrap_or_default();
    let t = since.as_secs() as f64 + f64::from(since.subsec_nanos()) * 1e-9;
    let mut secs = t.trunc() as u64;
    let mut micros = ((t - t.trunc()) * 1e6).round_ties_even() as u32;
    if micros >= 1_000_000 {
        secs += 1;
        micros -= 1_000_000;
    }
    let [year, month, day, hour, minute, second] = civil(UNIX_EPOCH + Duration::from_secs(secs));
    let fraction = if micros == 0 {
        String::new()
    } else {
        format!(".{micros:06}")
    };
    format!("{year:04}-{month:02}-{day:02}T{hour:02}:{minute:02}:{second:02}{fraction}Z")
}

/// Year, month, day, hour, minute, second in UTC, computed from the Unix
/// time (civil-from-days), so no date crate is needed for a few stamps.
fn civil(at: SystemTime) -> [i64; 6] {
    let secs = at
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0) as i64;
    let (days, rest) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    [year, month, day, rest / 3_600, rest % 3_600 / 60, rest % 60]
}

fn io_error(path: &Path, source: std::io::Error) -> Error {
    Error::Io {
        what: path.display().to_string(),
        source,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps_are_utc_calendar_dates() {
        let at = |secs| timestamp(UNIX_EPOCH + Duration::from_secs(secs));
        assert_eq!(at(0), "19700101T000000Z");
        assert_eq!(at(951_782_400), "20000229T000000Z");
        assert_eq!(at(1_795_462_245), "20261123T193045Z");
        let iso = |secs, nanos| iso_utc(UNIX_EPOCH + Duration::new(secs, nanos));
        assert_eq!(iso(1_795_462_245, 0), "2026-11-23T19:30:45Z");
        assert_eq!(iso(1_795_462_245, 1_500), "2026-11-23T19:30:45.000001Z");
        assert_eq!(iso(1_795_462_245, 999_999_600), "2026-11-23T19:30:46Z");
        // A real mtime where Python's float rounding is not the nearest
        // microsecond (…161001560 ns): Python wrote .161001.
        assert_eq!(
            iso(1_795_466_859, 161_001_560),
            "2026-11-23T20:47:39.161001Z"
        );
    }

    #[test]
    fn replace_backs_up_and_keeps_permissions() {
        use std::os::unix::fs::PermissionsExt;
        let dir = std::env::temp_dir().join(format!("warden-files-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        let file = dir.join("settings.json");
        assert_eq!(replace(&file, "one").unwrap(), None);
        fs::set_permissions(&file, fs::Permissions::from_mode(0o600)).unwrap();
        let backup = replace(&file, "two").unwrap().expect("a backup");
        let again = replace(&file, "three").unwrap().expect("a second backup");
        assert_ne!(backup, again);
        assert_eq!(fs::read_to_string(&backup).unwrap(), "one");
        assert_eq!(fs::read_to_string(&again).unwrap(), "two");
        assert_eq!(fs::read_to_string(&file).unwrap(), "three");
        let mode = fs::metadata(&file).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
        assert_eq!(read_optional(&dir.join("none")).unwrap(), None);

        let link = dir.join("link.json");
        std::os::unix::fs::symlink(&file, &link).unwrap();
        replace(&link, "four").unwrap();
        assert!(fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(fs::read_to_string(&file).unwrap(), "four");
        fs::remove_dir_all(&dir).unwrap();
    }
}
