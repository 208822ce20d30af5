//! `key=value&key=value` strings, percent-decoded, in order.

use std::fmt::Display;
use std::str::FromStr;

use crate::tr;

/// Parses one value, clamping it into `[min, max]`; anything else is reported.
pub fn read_clamped<T>(key: &str, raw: &str, (min, max): (T, T), slot: &mut T, notices: &mut Vec<String>)
where
    T: FromStr + PartialOrd + Copy + Display,
{
    match raw.trim().parse::<T>() {
        Ok(v) if v.partial_cmp(&v).is_none() => notices.push(tr!("note-not-a-number", key = key, raw = raw, kept = slot.to_string())),
        Ok(v) if v < min => {
            notices.push(tr!("note-below", key = key, raw = raw, min = min.to_string()));
            *slot = min;
        }
        Ok(v) if v > max => {
            notices.push(tr!("note-above", key = key, raw = raw, max = max.to_string()));
            *slot = max;
        }
        Ok(v) => *slot = v,
        Err(_) => notices.push(tr!("note-invalid", key = key, raw = raw, kept = slot.to_string())),
    }
}

/// Splits a query string into pairs; a pair without `=` has an empty value.
pub fn parse(query: &str) -> Vec<(String, String)> {
    query
        .trim_start_matches('?')
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|pair| {
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            (decode(k), decode(v))
        })
        .collect()
}

pub fn format(pairs: &[(String, String)]) -> String {
    pairs.iter().map(|(k, v)| format!("{}={}", encode(k), encode(v))).collect::<Vec<_>>().join("&")
}

fn encode(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// Percent-decoding that never fails: a malformed escape is kept as written.
fn decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match bytes[i] {
            b'%' if i + 2 < bytes.len() => match (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                (Some(h), Some(l)) => {
                    out.push((h * 16 + l) as u8);
                    i += 3;
                    continue;
                }
                _ => out.push(b'%'),
            },
            b'+' => out.push(b' '),
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_survives_garbage() {
        let pairs = vec![("a b".to_string(), "1&2=3".to_string()), ("λ".to_string(), "0.5".to_string())];
        assert_eq!(parse(&format(&pairs)), pairs);
        assert_eq!(parse("?x=%zz&y&=3&%"), vec![("x".into(), "%zz".into()), ("y".into(), "".into()), ("".into(), "3".into()), ("%".into(), "".into())]);
        assert_eq!(parse("k=%4"), vec![("k".into(), "%4".into())]);
        assert_eq!(parse("k=%41"), vec![("k".into(), "A".into())]);
    }
}
