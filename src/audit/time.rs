//! Times in the audit log: UTC RFC 3339 stamps, and the `--since` values that select a period of them.
//!
//! Stamps are fixed-width UTC text, so comparing two as strings compares
//! the times; a period's start is written the same way and compared so.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// `time` as `YYYY-MM-DDTHH:MM:SS.mmmZ` (UTC).
pub fn format_time(time: SystemTime) -> String {
    let since_epoch = time.duration_since(UNIX_EPOCH).unwrap_or_default();
    let secs = since_epoch.as_secs();
    let (year, month, day) = civil(secs / 86_400);
    let rest = secs % 86_400;
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:03}Z",
        rest / 3600,
        rest / 60 % 60,
        rest % 60,
        since_epoch.subsec_millis()
    )
}

/// The year, month and day of a day counted from 1970-01-01 (the
/// proleptic Gregorian calendar, in 400-year eras of 146,097 days).
fn civil(days: u64) -> (u64, u64, u64) {
    // Shift the epoch to 0000-03-01 so leap days end each year.
    let z = days + 719_468;
    let era = z / 146_097;
    let day_of_era = z % 146_097;
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_index = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * month_index + 2) / 5 + 1;
    let month = if month_index < 10 {
        month_index + 3
    } else {
        month_index - 9
    };
    let year = year_of_era + era * 400 + u64::from(month <= 2);
    (year, month, day)
}

/// The start of the period `--since VALUE` names, as a stamp to compare
/// with: a duration back from `now` (`90s`, `30m`, `24h`, `7d`, `2w`) or a
/// UTC date or time (`2026-11-01`, `2026-11-01T09:30:00Z`).
pub fn since(value: &str, now: SystemTime) -> Result<String, String> {
    let value = value.trim();
    let unit = value.chars().last().unwrap_or(' ');
    let number = &value[..value.len() - unit.len_utf8().min(value.len())];
    let seconds = match unit {
        's' => Some(1),
        'm' => Some(60),
        'h' => Some(3600),
        'd' => Some(86_400),
        'w' => Some(7 * 86_400),
        _ => None,
    };
    if let (Some(seconds), Ok(n)) = (seconds, number.parse::<u64>()) {
        let back = Duration::from_secs(n.saturating_mul(seconds));
        return Ok(format_time(now.checked_sub(back).unwrap_or(UNIX_EPOCH)));
    }
    if is_stamp(value) {
        return Ok(value.trim_end_matches('Z').to_string());
    }
    Err(format!(
        "`{value}` is neither a duration (90s, 30m, 24h, 7d, 2w) nor a UTC date or time (2026-11-01, 2026-11-01T09:30:00Z)"
    ))
}

/// `YYYY-MM-DD`, optionally followed by `THH:MM[:SS[.fff]]` and `Z`.
fn is_stamp(value: &str) -> bool {
    let shape = |text: &str, pattern: &str| {
        text.len() == pattern.len()
            && text.bytes().zip(pattern.bytes()).all(|(c, p)| {
                if p == b'9' {
                    c.is_ascii_digit()
                } else {
                    c == p
                }
            })
    };
    let value = value.strip_suffix('Z').unwrap_or(value);
    let (date, time) = match value.split_once('T') {
        Some((date, time)) => (date, Some(time)),
        None => (value, None),
    };
    shape(date, "9999-99-99")
        && time.is_none_or(|t| {
            ["99:99", "99:99:99", "99:99:99.999"]
                .iter()
                .any(|p| shape(t, p))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(secs: u64) -> SystemTime {
        UNIX_EPOCH + Duration::from_millis(secs * 1000 + 250)
    }

    #[test]
    fn stamps() {
        assert_eq!(format_time(at(0)), "1970-01-01T00:00:00.250Z");
        assert_eq!(format_time(at(951_782_400)), "2000-02-29T00:00:00.250Z");
        assert_eq!(format_time(at(1_795_564_799)), "2026-11-24T23:59:59.250Z");
        assert_eq!(format_time(at(4_107_542_400)), "2100-03-01T00:00:00.250Z");
    }

    #[test]
    fn periods() {
        let now = at(1_795_564_799);
        assert_eq!(since("24h", now).unwrap(), "2026-11-23T23:59:59.250Z");
        assert_eq!(since("7d", now).unwrap(), "2026-11-17T23:59:59.250Z");
        assert_eq!(since("2026-11-01", now).unwrap(), "2026-11-01");
        assert_eq!(
            since("2026-11-01T09:30:00Z", now).unwrap(),
            "2026-11-01T09:30:00"
        );
        for bad in ["", "yesterday", "7", "d", "2026-1-1", "1x", "2026-11-01T9"] {
            assert!(since(bad, now).is_err(), "{bad:?}");
        }
        // A stamp sorts after the period's start when it is later.
        assert!(format_time(at(1_795_564_799)).as_str() >= "2026-11-01T09:30:00");
    }
}
