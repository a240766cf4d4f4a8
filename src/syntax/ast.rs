//! The abstract syntax tree of a rules file. Every node keeps the byte span of its source text
//! so that the checker can point at it.

pub use crate::board::CellClass;
pub use crate::ir::PieceRole;
pub use crate::ir::Timing;
pub use crate::source::Span;

#[derive(Clone, Debug, PartialEq)]
pub struct Spanned<T> {
    pub node: T,
    pub span: Span,
}

pub type Ident = Spanned<String>;

#[derive(Clone, Debug, PartialEq)]
pub struct File {
    pub extends: Option<Spanned<String>>,
    pub items: Vec<Item>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Item {
    pub kind: ItemKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Literal {
    Int(i64),
    Bool(bool),
}

impl std::fmt::Display for Literal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Literal::Int(i) => write!(f, "{i}"),
            Literal::Bool(b) => write!(f, "{b}"),
        }
    }
}

/// One piece of a parameter's allowed values: `lo`, or `lo to hi [step s]`.
#[derive(Clone, Debug, PartialEq)]
pub struct AllowedPart {
    pub lo: i64,
    pub hi: i64,
    pub step: i64,
}

/// The kind of board a `board` item describes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoardShape {
    Rectangle,
    Cylinder,
    Torus,
    Hexagon,
    Rhombus,
    /// A triangle of hexagonal cells: the half of a rhombus above its short diagonal.
    Triangle,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ItemKind {
    Title(Spanned<String>),
    Source(Spanned<String>),
    Credit(Spanned<String>),
    Param {
        name: Ident,
        default: Spanned<Literal>,
        allowed: Option<Spanned<Vec<AllowedPart>>>,
    },
    SetParam {
        name: Ident,
        value: Spanned<Literal>,
    },
    /// `board W x H` (with `cylinder` or `torus` after it, its edges joined), `board hexagon
    /// SIDE` (then `height` is None and `width` the side) or `board rhombus W [x H]`.
    Board {
        shape: BoardShape,
        width: Expr,
        height: Option<Expr>,
    },
    Removed(Expr),
    Player {
        name: Ident,
        symbol: Option<Spanned<char>>,
        attributes: Vec<(Ident, Expr)>,
    },
    /// `piece NAME 'S' [as friend|opponent]`: a kind of piece that belongs to no player.
    PieceKind {
        name: Ident,
        symbol: Option<Spanned<char>>,
        role: Option<Spanned<PieceRole>>,
    },
    First(Ident),
    Region {
        name: Ident,
        value: Expr,
    },
    Def {
        name: Ident,
        params: Vec<Ident>,
        body: Expr,
    },
    Token(Ident),
    /// `directions NAME = D, D, ...`: a named set of directions and leaps.
    Directions {
        name: Ident,
        parts: Vec<DirectionPart>,
    },
    /// `counter NAME = VALUE`: a number per player that lasts the whole game.
    Counter {
        name: Ident,
        value: Expr,
    },
    Setup(Vec<SetupEntry>),
    Line {
        name: Ident,
        elements: Vec<Spanned<Element>>,
        along: Option<Ident>,
    },
    Turn(Block),
    Agreement(Block),
    Example(Example),
    End(EndRule),
    Score {
        player: Ident,
        value: Expr,
    },
    Tiebreak {
        player: Ident,
        value: Expr,
    },
}

/// One part of a `directions` item: a direction set by name, or a leap by a vector.
#[derive(Clone, Debug, PartialEq)]
pub enum DirectionPart {
    Name(Ident),
    /// `(columns, rows)`: one step that many columns east (west when negative) and rows
    /// towards the last row, the way the notation counts them.
    Leap(Spanned<(i32, i32)>),
}

#[derive(Clone, Debug, PartialEq)]
pub enum SetupEntry {
    Place { player: Ident, cells: Vec<Expr> },
    Rows(Spanned<String>),
    ToMove(Ident),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Element {
    pub class: ElementClass,
    pub min: u32,
    pub max: u32,
}

/// What one element of a line pattern matches, as written.
#[derive(Clone, Debug, PartialEq)]
pub enum ElementClass {
    /// `friend`, `opponent`, `empty` or `piece`.
    Word(CellClass),
    /// A kind of piece, by the name it was declared with.
    Kind(Ident),
}

#[derive(Clone, Debug, PartialEq)]
pub struct EndRule {
    pub timing: Timing,
    pub for_each: Option<Ident>,
    pub condition: Expr,
    pub winner: Option<Expr>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Block {
    pub statements: Vec<Stmt>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum StmtKind {
    Choose {
        /// `choose auto`: a single legal option is taken without a step.
        auto: bool,
        options: Vec<ChoiceOption>,
        otherwise: Option<Block>,
    },
    /// `place c`, or `place c as KIND`.
    Place(Expr, Option<Ident>),
    Flip(Expr),
    /// `flip S to P`: the pieces on `S` become the player `P`'s.
    FlipTo(Expr, Expr),
    /// `remove S`: the pieces on `S` leave the board (the cells stay in play).
    Remove(Expr),
    /// `swap`: the two players exchange their pieces, counters and tokens.
    Swap,
    Move {
        from: Expr,
        to: Expr,
    },
    Let {
        name: Ident,
        value: Expr,
    },
    If {
        condition: Expr,
        then: Block,
        otherwise: Option<Block>,
    },
    While {
        condition: Expr,
        body: Block,
    },
    Repeat {
        times: Expr,
        body: Block,
    },
    Require(Expr),
    Stop,
    Take(Ident),
    /// `add COUNTER AMOUNT [to PLAYER]` (the mover's when no player is named).
    Add {
        counter: Ident,
        amount: Expr,
        player: Option<Expr>,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub struct ChoiceOption {
    pub kind: OptionKind,
    pub condition: Option<Expr>,
    pub mark: Option<Spanned<String>>,
    pub body: Block,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum OptionKind {
    Cell { var: Ident, set: Expr },
    Word(Spanned<String>),
    Pass,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnaryOp {
    Not,
    Neg,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinaryOp {
    Or,
    And,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    In,
    Union,
    Inter,
    Add,
    Sub,
    Mul,
    Div,
}

impl BinaryOp {
    pub fn symbol(self) -> &'static str {
        match self {
            BinaryOp::Or => "or",
            BinaryOp::And => "and",
            BinaryOp::Eq => "==",
            BinaryOp::Ne => "!=",
            BinaryOp::Lt => "<",
            BinaryOp::Le => "<=",
            BinaryOp::Gt => ">",
            BinaryOp::Ge => ">=",
            BinaryOp::In => "in",
            BinaryOp::Union => "|",
            BinaryOp::Inter => "&",
            BinaryOp::Add => "+",
            BinaryOp::Sub => "-",
            BinaryOp::Mul => "*",
            BinaryOp::Div => "/",
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    Number(f64),
    Bool(bool),
    Str(String),
    Name(String),
    Call(Ident, Vec<Expr>),
    Unary(UnaryOp, Box<Expr>),
    Binary(BinaryOp, Box<Expr>, Box<Expr>),
    If(Box<Expr>, Box<Expr>, Box<Expr>),
    Attr(Box<Expr>, Ident),
    /// `some c in S where COND` and its kin: the cells of `S` for which `COND` holds with `c`
    /// standing for each, asked as `kind` says.
    Quantified {
        kind: Quantifier,
        var: Ident,
        set: Box<Expr>,
        condition: Box<Expr>,
    },
}

/// What a quantified expression asks of the cells that meet its condition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quantifier {
    /// `some`: whether there is one.
    Some,
    /// `all`: whether every cell of the set is one.
    All,
    /// `none`: whether there is none.
    None,
    /// `count`: how many.
    Count,
    /// `cells`: the set of them.
    Cells,
}

/// An example inside a rules file: where to start, what to play, and what must hold.
#[derive(Clone, Debug, PartialEq)]
pub struct Example {
    pub name: Spanned<String>,
    pub steps: Vec<Spanned<ExampleStep>>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ExampleStep {
    /// `set NAME = VALUE`: the example runs with this parameter value.
    Set {
        name: Ident,
        value: Spanned<Literal>,
    },
    Position {
        rows: String,
        to_move: Option<Ident>,
    },
    Play(String),
    Expect(Expectation),
}

#[derive(Clone, Debug, PartialEq)]
pub enum Expectation {
    /// Exactly these whole turns (in any order).
    Legal(Vec<String>),
    LegalIncludes(Vec<String>),
    LegalExcludes(Vec<String>),
    /// Exactly these next steps.
    Steps(Vec<String>),
    Board(Vec<String>),
    ToMove(Ident),
    Over,
    NotOver,
    Winner(Ident),
    Draw,
    Illegal(String),
    Scores(Vec<(Ident, f64)>),
}
