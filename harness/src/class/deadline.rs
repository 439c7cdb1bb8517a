//! `--deadline WHEN`: an instant, read in a documented time zone.
//!
//! - `2026-12-01T23:59+01:00` or `2026-12-01T23:59Z`: that offset;
//! - `2026-12-01T23:59[Europe/Paris]`: that zone's time then;
//! - `2026-12-01T23:59`: the judge's time zone (`TZ`, else the system's).
//!
//! A wall time a daylight-saving change skips is read as the same span
//! after the change; one it repeats, as the earlier of the two. The
//! instant is printed with its offset, so the reading is never a guess.

use thiserror::Error;

#[derive(Debug, Error)]
#[error(
    "--deadline `{text}`: {message} (write e.g. 2026-12-01T23:59, 2026-12-01T23:59+01:00 \
     or 2026-12-01T23:59[Europe/Paris])"
)]
pub(crate) struct BadDeadline {
    pub text: String,
    pub message: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Deadline {
    pub at: jiff::Timestamp,
    /// RFC 3339 with the offset the deadline was read in.
    pub shown: String,
}

impl Deadline {
    pub(crate) fn parse(text: &str) -> Result<Deadline, BadDeadline> {
        let bad = |message: String| BadDeadline {
            text: text.to_string(),
            message,
        };
        let zoned: jiff::Zoned = if text.ends_with(']') {
            text.parse().map_err(|e: jiff::Error| bad(e.to_string()))?
        } else if let Ok(instant) = text.parse::<jiff::Timestamp>() {
            // An offset given: kept for showing.
            let offset = offset_of(text).unwrap_or(jiff::tz::Offset::UTC);
            instant.to_zoned(jiff::tz::TimeZone::fixed(offset))
        } else {
            let civil: jiff::civil::DateTime =
                text.parse().map_err(|e: jiff::Error| bad(e.to_string()))?;
            let zone = jiff::tz::TimeZone::system();
            zone.to_ambiguous_zoned(civil)
                .compatible()
                .map_err(|e| bad(e.to_string()))?
        };
        let at = zoned.timestamp();
        Ok(Deadline {
            at,
            shown: at.display_with_offset(zoned.offset()).to_string(),
        })
    }

    /// Seconds from the deadline to `time` (positive: late).
    pub(crate) fn late_by(&self, time: jiff::Timestamp) -> i64 {
        time.as_second() - self.at.as_second()
    }
}

/// The offset written at the end of an RFC 3339 time (`Z`, `+01:00`).
fn offset_of(text: &str) -> Option<jiff::tz::Offset> {
    if text.ends_with(['Z', 'z']) {
        return Some(jiff::tz::Offset::UTC);
    }
    let at = text.rfind(['+', '-']).filter(|&i| i > 10)?;
    let (sign, rest) = text[at..].split_at(1);
    let (hours, minutes) = rest.split_once(':').unwrap_or((rest, "0"));
    let seconds = hours.parse::<i32>().ok()? * 3600 + minutes.parse::<i32>().ok()? * 60;
    let seconds = if sign == "-" { -seconds } else { seconds };
    jiff::tz::Offset::from_seconds(seconds).ok()
}

/// A time as RFC 3339 in UTC, as the store keeps times.
pub(crate) fn rfc3339(time: jiff::Timestamp) -> String {
    time.strftime("%Y-%m-%dT%H:%M:%SZ").to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_deadline_reads_with_an_offset_a_zone_or_the_judges_zone() {
        let with_offset = Deadline::parse("2026-12-01T23:59+01:00").unwrap();
        assert_eq!(with_offset.shown, "2026-12-01T23:59:00+01:00");
        assert_eq!(rfc3339(with_offset.at), "2026-12-01T22:59:00Z");
        let utc = Deadline::parse("2026-12-01T23:59Z").unwrap();
        assert_eq!(utc.shown, "2026-12-01T23:59:00+00:00");
        let zoned = Deadline::parse("2026-12-01T23:59[Europe/Paris]").unwrap();
        assert_eq!(zoned.at, with_offset.at);
        let summer = Deadline::parse("2026-07-01T12:00[Europe/Paris]").unwrap();
        assert_eq!(summer.shown, "2026-07-01T12:00:00+02:00");
        // No offset: the judge's time zone, whatever it is, and said.
        let local = Deadline::parse("2026-12-01T23:59").unwrap();
        assert!(
            local.shown.starts_with("2026-12-01T23:59:00"),
            "{}",
            local.shown
        );
        assert_eq!(with_offset.late_by(utc.at), 3600);
    }

    #[test]
    fn a_bad_deadline_says_what_to_write() {
        let error = Deadline::parse("1 December").unwrap_err().to_string();
        assert!(error.contains("write e.g. 2026-12-01T23:59"), "{error}");
    }
}
