//! Turning the path part of a URL into a replay file that is certainly inside the replay
//! folder. This is the viewer's security boundary: a request can name only `.json` files below
//! the configured root, whatever it encodes.
//!
//! The check is done twice on purpose: first on the decoded text (no `..`, `.`, empty segment,
//! backslash, NUL or drive prefix), then on the file system (the canonical path, symlinks
//! resolved, must start with the canonical root). It does not read the file.

use std::path::{Path, PathBuf};

/// Decodes `%XX` escapes. Returns `None` for a malformed escape or a result that is not UTF-8,
/// so a doubtful URL is refused rather than guessed at. `+` stays a plus: it is only a space in
/// query strings.
pub fn percent_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = bytes.get(i + 1..i + 3)?;
            let hex = std::str::from_utf8(hex).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// Splits an already decoded relative path into its segments, refusing anything that could
/// leave the folder or that has two spellings: `..`, `.`, empty segments (`a//b`, a leading
/// `/`), backslashes, NUL and `:` (drive letters, alternate streams).
pub fn safe_segments(decoded: &str) -> Option<Vec<&str>> {
    if decoded.is_empty() {
        return None;
    }
    let segments: Vec<&str> = decoded.split('/').collect();
    let bad = |s: &&str| s.is_empty() || *s == "." || *s == ".." || s.contains(['\\', '\0', ':']);
    if segments.iter().any(bad) {
        return None;
    }
    Some(segments)
}

/// Resolves the still-encoded `rest` of a URL (the part after `/replay/` or `/api/replay/`) to
/// a `.json` file inside `root`, which must already be canonical.
pub fn resolve_replay(root: &Path, rest: &str) -> Option<PathBuf> {
    let decoded = percent_decode(rest)?;
    let segments = safe_segments(&decoded)?;
    if !decoded.ends_with(".json") {
        return None;
    }
    let mut candidate = root.to_path_buf();
    candidate.extend(segments);
    // Canonicalizing resolves symlinks, so a link pointing outside fails the prefix test.
    let canonical = candidate.canonicalize().ok()?;
    (canonical.starts_with(root) && canonical.is_file()).then_some(canonical)
}

/// The URL form of a path relative to the replay folder: each segment percent-encoded, joined
/// by `/`. Returns `None` for a path that is not plain UTF-8 segments.
pub fn encode_relative(relative: &Path) -> Option<String> {
    let mut parts = Vec::new();
    for component in relative.components() {
        match component {
            std::path::Component::Normal(part) => parts.push(encode_segment(part.to_str()?)),
            _ => return None,
        }
    }
    Some(parts.join("/"))
}

/// Percent-encodes everything but unreserved characters (RFC 3986), so the result is safe in
/// both a URL path and an HTML attribute.
pub fn encode_segment(segment: &str) -> String {
    let mut out = String::with_capacity(segment.len());
    for byte in segment.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~".contains(&byte) {
            out.push(byte as char);
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decoding_handles_escapes_and_refuses_malformed_ones() {
        assert_eq!(percent_decode("a%20b%2Fc").as_deref(), Some("a b/c"));
        assert_eq!(percent_decode("%2e%2E").as_deref(), Some(".."));
        assert_eq!(percent_decode("a+b").as_deref(), Some("a+b"));
        assert_eq!(percent_decode("%"), None);
        assert_eq!(percent_decode("%4"), None);
        assert_eq!(percent_decode("%zz"), None);
        assert_eq!(percent_decode("%ff"), None, "not UTF-8");
    }

    #[test]
    fn segments_refuse_every_way_out() {
        assert_eq!(safe_segments("a/b.json"), Some(vec!["a", "b.json"]));
        for bad in [
            "",
            "..",
            "a/../b",
            "./a",
            "/etc/passwd",
            "a//b",
            "a/",
            "a\\..\\b",
            "c:/x",
            "a\0b",
        ] {
            assert_eq!(safe_segments(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn resolution_stays_inside_the_root() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("replays");
        std::fs::create_dir_all(root.join("sub")).unwrap();
        std::fs::write(root.join("sub/m 1.json"), "{}").unwrap();
        std::fs::write(dir.path().join("secret.json"), "{}").unwrap();
        std::fs::write(root.join("notes.txt"), "x").unwrap();
        let root = root.canonicalize().unwrap();

        assert!(resolve_replay(&root, "sub/m%201.json").is_some());
        assert!(resolve_replay(&root, "sub/m 1.json").is_some());
        assert_eq!(resolve_replay(&root, "../secret.json"), None);
        assert_eq!(resolve_replay(&root, "%2e%2e/secret.json"), None);
        assert_eq!(resolve_replay(&root, "sub%2f..%2f..%2fsecret.json"), None);
        assert_eq!(resolve_replay(&root, "notes.txt"), None, "only replays");
        assert_eq!(resolve_replay(&root, "sub"), None, "not a file");
        assert_eq!(resolve_replay(&root, "missing.json"), None);
    }

    #[cfg(unix)]
    #[test]
    fn a_symlink_leaving_the_root_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("replays");
        std::fs::create_dir_all(&root).unwrap();
        std::fs::write(dir.path().join("secret.json"), "{}").unwrap();
        std::os::unix::fs::symlink(dir.path().join("secret.json"), root.join("link.json")).unwrap();
        std::fs::write(root.join("real.json"), "{}").unwrap();
        std::os::unix::fs::symlink(root.join("real.json"), root.join("inner.json")).unwrap();
        let root = root.canonicalize().unwrap();
        assert_eq!(resolve_replay(&root, "link.json"), None);
        assert!(
            resolve_replay(&root, "inner.json").is_some(),
            "links inside are fine"
        );
    }

    #[test]
    fn encoding_round_trips_through_decoding() {
        let encoded = encode_relative(Path::new("2026 runs/kd#1?.json")).unwrap();
        assert_eq!(encoded, "2026%20runs/kd%231%3F.json");
        assert_eq!(
            percent_decode(&encoded).as_deref(),
            Some("2026 runs/kd#1?.json")
        );
    }
}
