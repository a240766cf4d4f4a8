//! The game trees of SGF and GGF: `(;PROP[value]...;...)`, nodes of properties with values in
//! brackets, variations in parentheses.

/// One node of a game tree: its properties in order, each with its values.
pub(super) type Node = Vec<(String, Vec<String>)>;

/// A game's main line, and how many nodes of other variations were left out.
pub(super) struct Tree {
    pub(super) nodes: Vec<Node>,
    pub(super) skipped: usize,
}

/// The games of an SGF or GGF text: for each, the nodes of its main line (the first
/// variation at every fork).
pub(super) fn parse(text: &str) -> Result<Vec<Tree>, String> {
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    let mut trees = Vec::new();
    let skip_space = |i: &mut usize| {
        while *i < chars.len() && chars[*i].is_whitespace() {
            *i += 1;
        }
    };
    loop {
        skip_space(&mut i);
        if i >= chars.len() {
            break;
        }
        if chars[i] != '(' {
            return Err(format!(
                "a game starts with `(`, not `{}` (character {})",
                chars[i],
                i + 1
            ));
        }
        let mut nodes: Vec<Node> = Vec::new();
        // Depth of parentheses; the main line ends at the first `)`, and what is left of the
        // tree (other variations) is skipped to its closing parenthesis.
        let mut depth = 0usize;
        let mut main_line_over = false;
        let mut skipped = 0;
        while i < chars.len() {
            let c = chars[i];
            match c {
                '(' => {
                    depth += 1;
                    i += 1;
                }
                ')' => {
                    depth -= 1;
                    main_line_over = true;
                    i += 1;
                    if depth == 0 {
                        break;
                    }
                }
                ';' => {
                    if main_line_over {
                        skipped += 1;
                    } else {
                        nodes.push(Vec::new());
                    }
                    i += 1;
                }
                c if c.is_whitespace() => i += 1,
                c if c.is_ascii_alphabetic() => {
                    let begin = i;
                    while i < chars.len() && chars[i].is_ascii_alphabetic() {
                        i += 1;
                    }
                    let ident: String = chars[begin..i].iter().collect();
                    let mut values = Vec::new();
                    loop {
                        skip_space(&mut i);
                        if i >= chars.len() || chars[i] != '[' {
                            break;
                        }
                        i += 1;
                        let mut value = String::new();
                        while i < chars.len() && chars[i] != ']' {
                            // A backslash keeps the next character as it is (`\]`).
                            if chars[i] == '\\' && i + 1 < chars.len() {
                                i += 1;
                            }
                            value.push(chars[i]);
                            i += 1;
                        }
                        if i >= chars.len() {
                            return Err(format!("the value of {ident} has no closing `]`"));
                        }
                        i += 1;
                        values.push(value);
                    }
                    if values.is_empty() {
                        return Err(format!("the property {ident} has no value in `[...]`"));
                    }
                    if !main_line_over {
                        let Some(node) = nodes.last_mut() else {
                            return Err(format!("the property {ident} comes before any `;`"));
                        };
                        node.push((ident, values));
                    }
                }
                other => {
                    return Err(format!(
                        "`{other}` (character {}) is not part of a game tree",
                        i + 1
                    ))
                }
            }
        }
        if depth != 0 {
            return Err("the game tree is not closed: a `)` is missing".into());
        }
        trees.push(Tree { nodes, skipped });
    }
    Ok(trees)
}

/// The first value of property `name` in `node`.
pub(super) fn property<'n>(node: &'n Node, name: &str) -> Option<&'n str> {
    node.iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v[0].as_str())
}

/// A value with `]` and `\` kept as SGF and GGF keep them.
pub(super) fn escape(text: &str) -> String {
    text.replace('\\', "\\\\").replace(']', "\\]")
}
