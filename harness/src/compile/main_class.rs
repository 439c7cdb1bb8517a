//! The class a JVM program starts from, found as DOMjudge finds it: among
//! the classes the compiler wrote, the one with `public static void
//! main(String[])`. A Java file need not be named after its class
//! (`boolfind-test-correct.java` holds `class Main`), and Kotlin's
//! top-level `main` lives in a class named after its file (`MainKt`).
//! Read from the class files themselves (the constant pool, the class's
//! name and its methods), so nothing else runs.

use std::path::Path;

/// A class's name and the method a JVM starts it by.
const MAIN_NAME: &str = "main";
const MAIN_DESCRIPTOR: &str = "([Ljava/lang/String;)V";
const ACC_PUBLIC: u16 = 0x0001;
const ACC_STATIC: u16 = 0x0008;

/// The class to run from the class files in `dir` (and its folders), and a
/// sentence saying which it is and why, unless it is the only one and
/// named after the file. `stem` (the source file's name
/// without extension) wins among several; otherwise the first by name.
/// `None` when no class has a main method.
pub(super) fn find(dir: &Path, stem: &str) -> Option<(String, Option<String>)> {
    let mut found: Vec<String> = walkdir::WalkDir::new(dir)
        .sort_by_file_name()
        .into_iter()
        .flatten()
        .filter(|entry| entry.path().extension().is_some_and(|e| e == "class"))
        .filter_map(|entry| std::fs::read(entry.path()).ok())
        .filter_map(|bytes| main_class_of(&bytes))
        .collect();
    found.sort();
    let simple = |name: &str| name.rsplit('.').next().unwrap_or(name).to_string();
    let kotlin_stem = format!("{}Kt", kotlin_class_name(stem));
    let named_like_the_file = |name: &&String| simple(name) == stem || simple(name) == kotlin_stem;
    let chosen = found
        .iter()
        .find(named_like_the_file)
        .or(found.first())?
        .clone();
    let others: Vec<&str> = found
        .iter()
        .filter(|name| **name != chosen)
        .map(String::as_str)
        .collect();
    // The usual case goes without saying: one class with main, named
    // after the file.
    let note = match (named_like_the_file(&&chosen), others.is_empty()) {
        (true, true) => None,
        (_, true) => Some(format!(
            "ran class {chosen}: the class with public static void main"
        )),
        (_, false) => Some(format!(
            "ran class {chosen}: a class with public static void main (also in {})",
            others.join(", ")
        )),
    };
    Some((chosen, note))
}

/// Kotlin names a file's class after the file: its first letter upper
/// case, and characters a name cannot hold as `_` (`boolfind-test.kt`
/// gives `Boolfind_testKt`).
fn kotlin_class_name(stem: &str) -> String {
    let mut name: String = stem
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if let Some(first) = name.get(..1) {
        name.replace_range(..1, &first.to_uppercase());
    }
    name
}

/// The class's name (`a.b.Main`) when it has `public static void
/// main(String[])`; `None` for another class or bytes that are no class
/// file.
fn main_class_of(bytes: &[u8]) -> Option<String> {
    let mut reader = Reader { bytes, at: 0 };
    if reader.u32()? != 0xCAFE_BABE {
        return None;
    }
    reader.skip(4)?; // minor and major version
    let pool = constant_pool(&mut reader)?;
    reader.skip(2)?; // access flags
    let this_class = reader.u16()?;
    reader.skip(2)?; // super class
    let interfaces = reader.u16()?;
    reader.skip(2 * usize::from(interfaces))?;
    let fields = reader.u16()?;
    for _ in 0..fields {
        member(&mut reader)?;
    }
    let methods = reader.u16()?;
    let mut has_main = false;
    for _ in 0..methods {
        let (flags, name, descriptor) = member(&mut reader)?;
        has_main |= flags & (ACC_PUBLIC | ACC_STATIC) == ACC_PUBLIC | ACC_STATIC
            && pool.utf8(name) == Some(MAIN_NAME)
            && pool.utf8(descriptor) == Some(MAIN_DESCRIPTOR);
    }
    let name = pool.class_name(this_class)?;
    has_main.then(|| name.replace('/', "."))
}

/// A field or method: its access flags and the pool indexes of its name
/// and descriptor (its attributes skipped).
fn member(reader: &mut Reader<'_>) -> Option<(u16, u16, u16)> {
    let flags = reader.u16()?;
    let name = reader.u16()?;
    let descriptor = reader.u16()?;
    let attributes = reader.u16()?;
    for _ in 0..attributes {
        reader.skip(2)?;
        let length = reader.u32()?;
        reader.skip(usize::try_from(length).ok()?)?;
    }
    Some((flags, name, descriptor))
}

/// The constant pool's entries a name is read from: UTF-8 strings and
/// classes (an index of a string); every other entry is skipped.
enum Constant<'a> {
    Utf8(&'a [u8]),
    Class(u16),
    Other,
}

struct Pool<'a>(Vec<Constant<'a>>);

impl<'a> Pool<'a> {
    fn utf8(&self, index: u16) -> Option<&'a str> {
        match self.0.get(usize::from(index))? {
            Constant::Utf8(bytes) => std::str::from_utf8(bytes).ok(),
            _ => None,
        }
    }

    fn class_name(&self, index: u16) -> Option<&'a str> {
        match self.0.get(usize::from(index))? {
            Constant::Class(name) => self.utf8(*name),
            _ => None,
        }
    }
}

fn constant_pool<'a>(reader: &mut Reader<'a>) -> Option<Pool<'a>> {
    let count = usize::from(reader.u16()?);
    // Entries are numbered from 1; a long or a double takes two numbers.
    let mut entries = vec![Constant::Other];
    while entries.len() < count {
        let tag = reader.u8()?;
        let (entry, slots) = match tag {
            1 => {
                let length = usize::from(reader.u16()?);
                (Constant::Utf8(reader.take(length)?), 1)
            }
            7 => (Constant::Class(reader.u16()?), 1),
            8 | 16 | 19 | 20 => (Constant::Other, reader.skip(2).map(|()| 1)?),
            15 => (Constant::Other, reader.skip(3).map(|()| 1)?),
            3 | 4 | 9 | 10 | 11 | 12 | 17 | 18 => (Constant::Other, reader.skip(4).map(|()| 1)?),
            5 | 6 => (Constant::Other, reader.skip(8).map(|()| 2)?),
            _ => return None,
        };
        entries.push(entry);
        if slots == 2 {
            entries.push(Constant::Other);
        }
    }
    Some(Pool(entries))
}

/// Big-endian reads that fail at the end of the bytes.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let taken = self.bytes.get(self.at..self.at.checked_add(n)?)?;
        self.at += n;
        Some(taken)
    }

    fn skip(&mut self, n: usize) -> Option<()> {
        self.take(n).map(|_| ())
    }

    fn u8(&mut self) -> Option<u8> {
        Some(self.take(1)?[0])
    }

    fn u16(&mut self) -> Option<u16> {
        Some(u16::from_be_bytes(self.take(2)?.try_into().ok()?))
    }

    fn u32(&mut self) -> Option<u32> {
        Some(u32::from_be_bytes(self.take(4)?.try_into().ok()?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kotlin_names_a_files_class_after_the_file() {
        assert_eq!(kotlin_class_name("main"), "Main");
        assert_eq!(kotlin_class_name("boolfind-test"), "Boolfind_test");
    }

    #[test]
    fn bytes_that_are_no_class_file_name_no_class() {
        assert_eq!(main_class_of(b""), None);
        assert_eq!(main_class_of(b"\xCA\xFE\xBA\xBE\0\0"), None);
        assert_eq!(main_class_of(b"not a class file at all"), None);
    }

    /// A class file by hand: `class p/Main` with one method, `name` of
    /// `descriptor` with `flags`.
    fn class_file(flags: u16, name: &str, descriptor: &str) -> Vec<u8> {
        let mut bytes = vec![0xCA, 0xFE, 0xBA, 0xBE, 0, 0, 0, 65];
        let utf8 = |bytes: &mut Vec<u8>, text: &str| {
            bytes.push(1);
            bytes.extend((text.len() as u16).to_be_bytes());
            bytes.extend(text.as_bytes());
        };
        bytes.extend(7u16.to_be_bytes()); // six entries, from 1
        utf8(&mut bytes, "p/Main"); // 1
        bytes.extend([7, 0, 1]); // 2: class p/Main
        utf8(&mut bytes, name); // 3
        utf8(&mut bytes, descriptor); // 4
        bytes.extend([5, 0, 0, 0, 0, 0, 0, 0, 42]); // 5 and 6: a long
        bytes.extend(0x21u16.to_be_bytes()); // public super
        bytes.extend(2u16.to_be_bytes()); // this class
        bytes.extend(0u16.to_be_bytes()); // no super class (Object's own)
        bytes.extend(0u16.to_be_bytes()); // no interfaces
        bytes.extend(0u16.to_be_bytes()); // no fields
        bytes.extend(1u16.to_be_bytes()); // one method
        bytes.extend(flags.to_be_bytes());
        bytes.extend(3u16.to_be_bytes());
        bytes.extend(4u16.to_be_bytes());
        bytes.extend(1u16.to_be_bytes()); // one attribute, skipped
        bytes.extend(3u16.to_be_bytes());
        bytes.extend(2u32.to_be_bytes());
        bytes.extend([0, 0]);
        bytes
    }

    #[test]
    fn only_public_static_void_main_of_strings_starts_a_class() {
        let main = class_file(ACC_PUBLIC | ACC_STATIC, "main", MAIN_DESCRIPTOR);
        assert_eq!(main_class_of(&main).as_deref(), Some("p.Main"));
        for (flags, name, descriptor) in [
            (ACC_PUBLIC, "main", MAIN_DESCRIPTOR),
            (ACC_STATIC, "main", MAIN_DESCRIPTOR),
            (ACC_PUBLIC | ACC_STATIC, "main", "()V"),
            (ACC_PUBLIC | ACC_STATIC, "start", MAIN_DESCRIPTOR),
        ] {
            assert_eq!(main_class_of(&class_file(flags, name, descriptor)), None);
        }
    }

    #[test]
    fn the_main_class_is_found_in_the_class_files_and_named_when_unexpected() {
        let dir = tempfile::tempdir().unwrap();
        let main = class_file(ACC_PUBLIC | ACC_STATIC, "main", MAIN_DESCRIPTOR);
        std::fs::create_dir(dir.path().join("p")).unwrap();
        std::fs::write(dir.path().join("p/Main.class"), &main).unwrap();
        let (class, note) = find(dir.path(), "boolfind-test-correct").unwrap();
        assert_eq!(class, "p.Main");
        assert_eq!(
            note.as_deref(),
            Some("ran class p.Main: the class with public static void main")
        );
        assert_eq!(find(dir.path(), "Main"), Some(("p.Main".into(), None)));
        assert_eq!(find(tempfile::tempdir().unwrap().path(), "x"), None);
    }
}
