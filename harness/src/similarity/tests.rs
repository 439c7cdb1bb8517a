//! What a copier changes cheaply must not change a copy's score, and no
//! copy may hide behind code the rest of the class shares (issue 35).

use std::collections::HashSet;
use std::path::Path;

use super::{Similarity, scan_class};

/// Writes `files` (student, file name, source) into a class folder.
fn class(dir: &Path, files: &[(&str, &str, &str)]) {
    for (student, name, source) in files {
        let folder = dir.join(student);
        std::fs::create_dir_all(&folder).unwrap();
        std::fs::write(folder.join(name), source).unwrap();
    }
}

fn compared(files: &[(&str, &str, &str)]) -> Similarity {
    let dir = tempfile::tempdir().unwrap();
    class(dir.path(), files);
    let (inputs, _) = scan_class(dir.path(), &[]).unwrap();
    Similarity::compute(inputs, &HashSet::new())
}

/// The score of the one pair of two files, in percent (0: no pair).
fn score(name: &str, original: &str, copy: &str) -> u32 {
    let found = compared(&[("ann", name, original), ("bob", name, copy)]);
    found.pairs.first().map_or(0, |p| p.percent())
}

const JAVA: &str = r#"import java.util.Scanner;

public class Grades {
    public static void main(String[] args) {
        Scanner in = new Scanner(System.in);
        int n = in.nextInt();
        int best = -1, total = 0;
        for (int i = 0; i < n; i++) {
            int mark = in.nextInt();
            if (mark > best) {
                best = mark;
            }
            total += mark;
        }
        if (n > 0) {
            System.out.println(best + " " + (double) total / n);
        } else {
            System.out.println("none");
        }
    }
}
"#;

const C: &str = r#"#include <stdio.h>

int main(void) {
    int n;
    if (scanf("%d", &n) != 1) {
        return 1;
    }
    int best = -1, total = 0;
    for (int i = 0; i < n; i++) {
        int mark;
        scanf("%d", &mark);
        if (mark > best) {
            best = mark;
        }
        total += mark;
    }
    if (n > 0) {
        printf("%d %.2f\n", best, (double) total / n);
    } else {
        printf("none\n");
    }
    return 0;
}
"#;

const CPP: &str = r#"#include <iostream>
#include <vector>
using namespace std;

int main() {
    int n;
    cin >> n;
    vector<int> marks(n);
    for (int i = 0; i < n; i++) {
        cin >> marks[i];
    }
    int best = -1;
    for (int m : marks) {
        if (m > best) {
            best = m;
        }
    }
    cout << best << endl;
    return 0;
}
"#;

const PYTHON: &str = r#"import math

def spread(values):
    mean = sum(values) / len(values)
    total = 0
    for v in values:
        total += (v - mean) ** 2
    return math.sqrt(total / len(values))

n = int(input())
values = [int(input()) for _ in range(n)]
print(round(spread(values), 2), max(values))
"#;

#[test]
fn optional_braces_do_not_change_a_copys_score() {
    let java = JAVA
        .replace(
            "if (mark > best) {\n                best = mark;\n            }",
            "if (mark > best)\n                best = mark;",
        )
        .replace(
            "if (n > 0) {\n            System.out.println(best + \" \" + (double) total / n);\n        } else {\n            System.out.println(\"none\");\n        }",
            "if (n > 0)\n            System.out.println(best + \" \" + (double) total / n);\n        else\n            System.out.println(\"none\");",
        );
    assert_ne!(java, JAVA);
    assert_eq!(score("Grades.java", JAVA, &java), 100);
    let c = C
        .replace("{\n        return 1;\n    }", "return 1;")
        .replace(
            "if (mark > best) {\n            best = mark;\n        }",
            "if (mark > best) best = mark;",
        );
    assert_ne!(c, C);
    assert_eq!(score("grades.c", C, &c), 100);
}

#[test]
fn qualified_names_and_imports_do_not_change_a_copys_score() {
    let java = JAVA.replace("import java.util.Scanner;\n", "").replace(
        "Scanner in = new Scanner(System.in);",
        "java.util.Scanner in = new java.util.Scanner(System.in);",
    );
    assert_eq!(score("Grades.java", JAVA, &java), 100);
    let cpp = CPP
        .replace("using namespace std;\n", "")
        .replace("cin", "std::cin")
        .replace("cout", "std::cout")
        .replace("endl", "std::endl")
        .replace("vector<int>", "std::vector<int>");
    assert_eq!(score("grades.cpp", CPP, &cpp), 100);
    let python = PYTHON
        .replace("import math", "from math import sqrt")
        .replace("math.sqrt", "sqrt");
    assert_eq!(score("spread.py", PYTHON, &python), 100);
}

#[test]
fn split_or_joined_declarations_do_not_change_a_copys_score() {
    let c = C
        .replace(
            "int best = -1, total = 0;",
            "int best;\n    int total;\n    best = -1;\n    total = 0;",
        )
        .replace(
            "for (int i = 0; i < n; i++)",
            "int i;\n    for (i = 0; i < n; i++)",
        );
    assert_eq!(score("grades.c", C, &c), 100);
    let java = JAVA
        .replace("int n = in.nextInt();", "int n;\n        n = in.nextInt();")
        .replace(
            "int best = -1, total = 0;",
            "int best = -1;\n        int total = 0;",
        );
    assert_eq!(score("Grades.java", JAVA, &java), 100);
}

/// A task of a class most of which hands in the same program with one
/// part rewritten each (the part `own` draws), and two students who hand
/// in the very same file.
fn shared_class() -> Vec<(String, String)> {
    let mut files = Vec::new();
    // Each student's own part: a function of theirs before the shared
    // program, so every fingerprint of the twins' file is in 18 files.
    let own = |s: usize| {
        let ops = ["+", "*", "^", "|"];
        format!(
            "static int extra(int k) {{\n    int e = 1;\n    while (k > 0) {{\n        e = e {} k;\n        k = k {} 3;\n        k -= 1;\n    }}\n    return e;\n}}\n\n",
            ops[s % 4],
            ops[s / 4 % 4],
        )
    };
    for s in 0..16 {
        let source = C.replace("int main(void)", &format!("{}int main(void)", own(s)));
        files.push((format!("s{s:02}"), source));
    }
    files.push(("twin1".into(), C.to_string()));
    files.push(("twin2".into(), C.to_string()));
    // Independent students: programs of other shapes.
    for s in 0..7 {
        let ops = ["+", "-", "*", "/", "%", "^", "|"];
        files.push((
            format!("z{s:02}"),
            format!(
                "#include <stdio.h>\nint main(void) {{\n    long a = {s}, b = 1;\n    while (a < 100) {{ b *= a {} {s}; a += b % 7 + 1; }}\n    printf(\"%ld\\n\", b);\n    return 0;\n}}\n",
                ops[s]
            ),
        ));
    }
    files
}

#[test]
fn two_identical_files_are_listed_first_even_when_most_of_the_class_shares_code() {
    let files = shared_class();
    let named: Vec<(&str, &str, &str)> = files
        .iter()
        .map(|(s, source)| (s.as_str(), "grades.c", source.as_str()))
        .collect();
    assert_eq!(named.len(), 25);
    let found = compared(&named);
    let first = found.pairs.first().expect("pairs");
    let students = (
        found.documents[first.a].student.as_str(),
        found.documents[first.b].student.as_str(),
    );
    assert_eq!(students, ("twin1", "twin2"));
    assert_eq!(first.percent(), 100);
    assert_eq!((first.tokens.a, first.tokens.b), (1.0, 1.0));
}
