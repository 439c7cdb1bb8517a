//! Reading a manifest's CSV (RFC 4180: fields separated by commas, quoted
//! with `"` when they hold commas, quotes or line breaks, `""` for a quote).

/// The rows of `text`, each as its fields.
pub(crate) fn parse(text: &str) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    let mut row = Vec::new();
    let mut field = String::new();
    let mut quoted = false;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                chars.next();
                field.push('"');
            }
            (true, '"') => quoted = false,
            (true, c) => field.push(c),
            (false, '"') => quoted = true,
            (false, ',') => row.push(std::mem::take(&mut field)),
            (false, '\r') => {}
            (false, '\n') => {
                row.push(std::mem::take(&mut field));
                rows.push(std::mem::take(&mut row));
            }
            (false, c) => field.push(c),
        }
    }
    if !field.is_empty() || !row.is_empty() {
        row.push(field);
        rows.push(row);
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_commas_and_line_breaks() {
        assert_eq!(
            parse("a,\"b, c\",\"say \"\"hi\"\"\"\r\nx,\"two\nlines\",\n"),
            [vec!["a", "b, c", "say \"hi\""], vec!["x", "two\nlines", ""]]
        );
        assert_eq!(parse("last,row"), [vec!["last", "row"]]);
    }
}
