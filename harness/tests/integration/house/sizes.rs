//! The size rule: a file of the library is at most `MAX_FILE` lines, a
//! function (tests included) at most `MAX_FUNCTION`, counted from its
//! `fn` to its closing brace; a longer one is split into named steps.

use syn::visit::Visit;

use super::source::SourceFile;

pub const MAX_FILE: usize = 600;
pub const MAX_FUNCTION: usize = 100;

/// Every file and function of `files` over the limits, apart from the
/// `known` ones (a file's path under harness/src; a function as (file,
/// name)), and every `known` one that is no longer over.
pub fn problems(
    files: &[SourceFile],
    known_files: &[&str],
    known_functions: &[(&str, &str)],
) -> Vec<String> {
    let mut problems = Vec::new();
    let mut long_files = Vec::new();
    let mut long_functions = Vec::new();
    for file in files {
        let lines = file.text.lines().count();
        if lines > MAX_FILE {
            long_files.push(file.path.as_str());
            if !known_files.contains(&file.path.as_str()) {
                problems.push(format!(
                    "harness/src/{}: {lines} lines, more than {MAX_FILE}",
                    file.path
                ));
            }
        }
        let syntax = syn::parse_file(&file.text)
            .unwrap_or_else(|e| panic!("harness/src/{}: {e}", file.path));
        let mut functions = Functions::default();
        functions.visit_file(&syntax);
        for (name, line, lines) in functions.found {
            if lines > MAX_FUNCTION {
                long_functions.push((file.path.as_str(), name.clone()));
                if !known_functions.contains(&(file.path.as_str(), name.as_str())) {
                    problems.push(format!(
                        "harness/src/{}:{line}: fn {name} has {lines} lines, more than {MAX_FUNCTION}",
                        file.path
                    ));
                }
            }
        }
    }
    for file in known_files {
        if !long_files.contains(file) {
            problems.push(format!(
                "harness/src/{file} is no longer over {MAX_FILE} lines: take it off the list"
            ));
        }
    }
    for (file, name) in known_functions {
        if !long_functions.contains(&(file, name.to_string())) {
            problems.push(format!(
                "harness/src/{file}: fn {name} is no longer over {MAX_FUNCTION} lines \
                 (or is gone): take it off the list"
            ));
        }
    }
    problems
}

/// Every function with a body: (name, first line, lines).
#[derive(Default)]
struct Functions {
    found: Vec<(String, usize, usize)>,
}

impl Functions {
    fn add(&mut self, signature: &syn::Signature, body: &syn::Block) {
        let first = signature.fn_token.span.start().line;
        let last = body.brace_token.span.close().end().line;
        self.found
            .push((signature.ident.to_string(), first, last - first + 1));
    }
}

impl<'ast> Visit<'ast> for Functions {
    fn visit_item_fn(&mut self, item: &'ast syn::ItemFn) {
        self.add(&item.sig, &item.block);
        syn::visit::visit_item_fn(self, item);
    }

    fn visit_impl_item_fn(&mut self, item: &'ast syn::ImplItemFn) {
        self.add(&item.sig, &item.block);
        syn::visit::visit_impl_item_fn(self, item);
    }

    fn visit_trait_item_fn(&mut self, item: &'ast syn::TraitItemFn) {
        if let Some(body) = &item.default {
            self.add(&item.sig, body);
        }
        syn::visit::visit_trait_item_fn(self, item);
    }
}
