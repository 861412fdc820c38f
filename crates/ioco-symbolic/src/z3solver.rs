//! The Z3 back end of [`Solver`]: the `z3` crate (0.22, pinned) over the system `libz3`
//! (Debian's libz3-dev 4.8.12), which `ioco_z3_lazy` loads on the first solver call; a library
//! that cannot be loaded makes every check `unknown`, with the reason.
//!
//! Encoding: `int` (and `int[lo..hi]`, whose range is asserted separately) is Z3's `Int`
//! (mathematical integers; `/` and `%` are SMT-LIB's Euclidean `div`/`mod`, as in the IR),
//! `bool` is `Bool`, each algebraic data type of [`Defs::types`] is a Z3 datatype (declared
//! together, so mutual recursion works), constructor tests and field reads use Z3's
//! recognisers and accessors (a field read on the wrong constructor is unconstrained in SMT-LIB
//! but an error in the IR; guards written with `is` tests before field reads mean the same).
//! Strings are Z3's `String` (`str.++`, `str.len`, `str.at`, `str.in_re` with the regular
//! expression of [`ioco_lang::regex`] translated node by node; `takeWhile` and its relatives,
//! when their character set is a constant, through two fresh strings and their defining
//! constraints); characters are passed to Z3 escaped (`\u{..}`), and strings read from models
//! are unescaped. Function calls are inlined; recursive calls deeper than [`Z3Solver::max_inline`] make the
//! formula `Unknown` rather than approximating it.
//!
//! Z3 objects live in the thread-local context of the `z3` crate, so a [`Z3Solver`] must stay on
//! the thread that made it (it is not `Send`).

use crate::solver::{SatResult, Solver};
use crate::term::{inline_call, SymVar, Term, T};
use ioco_lang::ast::{BinOp, UnOp};
use ioco_lang::ir::{Builtin, Defs, Type, Value};
use ioco_lang::regex::Re;
use std::collections::HashMap;
use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;
use z3::ast::{Ast, Bool, Datatype, Dynamic, Int, Regexp};
use z3::{DatatypeAccessor, DatatypeBuilder, DatatypeSort, Params, SatResult as ZSat, Sort};

/// The per-check time-out a new solver starts with (a check that runs out says `unknown`).
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(2);

/// Z3 as a [`Solver`].
pub struct Z3Solver {
    defs: Arc<Defs>,
    /// None when libz3 cannot be loaded (then `broken` says why, and nothing calls Z3).
    solver: Option<z3::Solver>,
    sorts: Vec<DatatypeSort>,
    consts: HashMap<(Arc<str>, Type), Dynamic>,
    /// per scope: whether an assertion could not be encoded (then checks say unknown)
    poisoned: Vec<Option<String>>,
    /// per scope: the assertions, and whether one was approximated (deep recursion cut)
    asserted: Vec<(Vec<T>, bool)>,
    fresh: usize,
    /// Defining constraints of the fresh strings of the term being encoded (`takeWhile`).
    side: Vec<Bool>,
    /// How deep recursive function calls are inlined.
    pub max_inline: usize,
    /// Why Z3 could not be set up (every check is then `unknown`).
    broken: Option<String>,
    /// Whether the base scope is open (see [`Z3Solver::base`]).
    based: bool,
}

/// Checks that Z3 can declare the data types: valid type indices, at least one constructor,
/// and every type inhabited (a constructor whose fields all have values).
fn check_defs(defs: &Defs) -> Result<(), String> {
    let n = defs.types.len();
    for t in &defs.types {
        if t.ctors.is_empty() {
            return Err(format!("data type `{}` has no constructor", t.name));
        }
        for c in &t.ctors {
            for (f, ty) in &c.fields {
                if let Type::Adt(a) = ty {
                    if *a as usize >= n {
                        return Err(format!(
                            "field `{}` of `{}.{}` has an unknown type",
                            f, t.name, c.name
                        ));
                    }
                }
            }
        }
    }
    // least fixpoint of inhabited types
    let mut inhabited = vec![false; n];
    loop {
        let mut changed = false;
        for (i, t) in defs.types.iter().enumerate() {
            if !inhabited[i]
                && t.ctors.iter().any(|c| {
                    c.fields.iter().all(|(_, ty)| match ty {
                        Type::Adt(a) => inhabited[*a as usize],
                        _ => true,
                    })
                })
            {
                inhabited[i] = true;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    if let Some(i) = inhabited.iter().position(|b| !b) {
        let t = &defs.types[i];
        return Err(format!(
            "data type `{}` has no finite values: every constructor needs a value of a type without one              (hint: add a constructor without recursive fields, e.g. `| Nil`)",
            t.name
        ));
    }
    Ok(())
}

/// The largest character of Z3's strings (4.8.12, Unicode encoding: `0x2FFFF`); the
/// regular-expression classes are cut there (Z3 has no larger characters).
const Z3_MAX_CHAR: u32 = 0x2FFFF;

/// A string as Z3's string-literal syntax expects it: printable ASCII but `\` as is, every
/// other character as `\u{hex}`.
fn z3_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if (' '..='~').contains(&c) && c != '\\' {
            out.push(c);
        } else {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        }
    }
    out
}

/// Reads a string as Z3 prints it (`\u{hex}` and `\x hh` escapes; Z3 prints a backslash as is,
/// so this is exact only for strings without one and for one-character strings).
fn z3_unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find('\\') {
        out.push_str(&rest[..i]);
        let tail = &rest[i + 1..];
        let code = if let Some(body) = tail.strip_prefix("u{") {
            body.find('}').and_then(|end| {
                let c = u32::from_str_radix(&body[..end], 16).ok()?;
                Some((char::from_u32(c)?, 2 + end + 1))
            })
        } else if let Some(body) = tail.strip_prefix('x') {
            body.get(..2)
                .and_then(|h| u32::from_str_radix(h, 16).ok())
                .and_then(char::from_u32)
                .map(|c| (c, 3))
        } else if let Some(body) = tail.strip_prefix('u') {
            body.get(..4)
                .and_then(|h| u32::from_str_radix(h, 16).ok())
                .and_then(char::from_u32)
                .map(|c| (c, 5))
        } else {
            None
        };
        match code {
            Some((c, used)) => {
                out.push(c);
                rest = &tail[used..];
            }
            None => match tail.chars().next() {
                Some('\\') => {
                    out.push('\\');
                    rest = &tail[1..];
                }
                _ => {
                    out.push('\\');
                    rest = tail;
                }
            },
        }
    }
    out.push_str(rest);
    out
}

/// A Z3 string constant.
fn z3_string(s: &str) -> z3::ast::String {
    z3::ast::String::from_str(&z3_escape(s)).expect("escaped strings have no NUL")
}

/// The Z3 regular expression of a character range.
fn re_range(lo: char, hi: char) -> Regexp {
    if lo == hi {
        return Regexp::literal(&z3_escape(&lo.to_string()));
    }
    let ctx = z3::Context::thread_local();
    let c = ctx.get_z3_context();
    let a = std::ffi::CString::new(z3_escape(&lo.to_string())).expect("no NUL");
    let b = std::ffi::CString::new(z3_escape(&hi.to_string())).expect("no NUL");
    // SAFETY: the context is the live thread-local one; the two string terms are kept alive
    // (reference counted) until the range is built and wrapped (which takes its own reference)
    unsafe {
        let sa = z3_sys::Z3_mk_string(c, a.as_ptr()).expect("Z3_mk_string");
        z3_sys::Z3_inc_ref(c, sa);
        let sb = z3_sys::Z3_mk_string(c, b.as_ptr()).expect("Z3_mk_string");
        z3_sys::Z3_inc_ref(c, sb);
        let r = z3_sys::Z3_mk_re_range(c, sa, sb).expect("Z3_mk_re_range");
        let out = Regexp::wrap(&ctx, r);
        z3_sys::Z3_dec_ref(c, sa);
        z3_sys::Z3_dec_ref(c, sb);
        out
    }
}

/// The Z3 regular expression of a [`Re`].
fn regexp(re: &Re) -> Regexp {
    match re {
        Re::Empty => Regexp::literal(""),
        Re::Class(ranges) => {
            let parts: Vec<Regexp> = ranges
                .iter()
                .filter(|(lo, _)| (*lo as u32) <= Z3_MAX_CHAR)
                .map(|&(lo, hi)| {
                    let hi = char::from_u32((hi as u32).min(Z3_MAX_CHAR)).unwrap_or(hi);
                    re_range(lo, hi)
                })
                .collect();
            match parts.len() {
                0 => Regexp::empty(),
                1 => parts.into_iter().next().expect("one"),
                _ => Regexp::union(&parts),
            }
        }
        Re::Concat(xs) => {
            let parts: Vec<Regexp> = xs.iter().map(regexp).collect();
            match parts.len() {
                0 => Regexp::literal(""),
                1 => parts.into_iter().next().expect("one"),
                _ => Regexp::concat(&parts),
            }
        }
        Re::Alt(xs) => {
            let parts: Vec<Regexp> = xs.iter().map(regexp).collect();
            match parts.len() {
                0 => Regexp::empty(),
                1 => parts.into_iter().next().expect("one"),
                _ => Regexp::union(&parts),
            }
        }
        Re::Repeat(x, min, max) => {
            let r = regexp(x);
            match (*min, *max) {
                (_, Some(0)) => Regexp::literal(""),
                (0, None) => r.star(),
                (1, None) => r.plus(),
                // `re.loop` with an upper bound of 0 means "unbounded"
                (m, None) => Regexp::concat(&[r.r#loop(m, m), r.star()]),
                (m, Some(n)) => r.r#loop(m, n),
            }
        }
    }
}

/// The version of the linked Z3 library, e.g. `4.8.12`.
/// If the library cannot be loaded (see `ioco_z3_lazy`), says so instead.
pub fn z3_version() -> String {
    match ioco_z3_lazy::load() {
        Ok(()) => z3::full_version().trim_start_matches("Z3 ").to_string(),
        Err(_) => "unavailable".into(),
    }
}

impl Z3Solver {
    /// A solver for terms over these definitions (declares the data types). If Z3 cannot be
    /// set up (see [`Z3Solver::try_new`]), the solver answers `unknown` to every check, with
    /// the reason: testing then degrades to Inconclusive verdicts, never to Fail.
    pub fn new(defs: Arc<Defs>) -> Z3Solver {
        match Z3Solver::try_new(defs.clone()) {
            Ok(s) => s,
            Err(e) if ioco_z3_lazy::load().is_err() => {
                let mut s = Z3Solver::with_parts(defs, None, Vec::new());
                s.broken = Some(e);
                s
            }
            Err(e) => {
                let mut s = Z3Solver::with_sorts(Arc::new(Defs::default()), Vec::new());
                s.defs = defs;
                s.broken = Some(e);
                s
            }
        }
    }

    /// A solver for terms over these definitions, or why Z3 cannot be set up for them: a data
    /// type without values (no constructor, or only constructors that need a value of the
    /// type itself: Z3 requires well-founded data types and crashes otherwise), or a failure
    /// inside Z3 (reported by the `z3` crate as a panic, caught here).
    pub fn try_new(defs: Arc<Defs>) -> Result<Z3Solver, String> {
        check_defs(&defs)?;
        ioco_z3_lazy::load()?;
        let d = defs.clone();
        let sorts = std::panic::catch_unwind(move || Z3Solver::declare(&d)).map_err(|p| {
            let msg = p
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "unknown error".into());
            format!(
                "cannot set up the Z3 solver ({}): {} (hint: check that libz3 works, e.g. `z3 -version`)",
                z3_version(),
                msg
            )
        })?;
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            Z3Solver::with_sorts(defs, sorts)
        }))
        .map_err(|_| format!("cannot create a Z3 solver ({})", z3_version()))
    }

    fn declare(defs: &Defs) -> Vec<DatatypeSort> {
        if defs.types.is_empty() {
            Vec::new()
        } else {
            let builders: Vec<DatatypeBuilder> = defs
                .types
                .iter()
                .map(|t| {
                    let mut b = DatatypeBuilder::new(t.name.as_str());
                    for c in &t.ctors {
                        let names: Vec<String> = c
                            .fields
                            .iter()
                            .map(|(f, _)| format!("{}.{}.{}", t.name, c.name, f))
                            .collect();
                        let refs: Vec<(&str, DatatypeAccessor)> = names
                            .iter()
                            .zip(&c.fields)
                            .map(|(n, (_, fty))| {
                                let acc = match fty {
                                    Type::Bool => DatatypeAccessor::sort(Sort::bool()),
                                    Type::Int | Type::Range(..) => {
                                        DatatypeAccessor::sort(Sort::int())
                                    }
                                    Type::Str(..) => DatatypeAccessor::sort(Sort::string()),
                                    Type::Adt(a) => DatatypeAccessor::datatype(
                                        defs.types[*a as usize].name.as_str(),
                                    ),
                                };
                                (n.as_str(), acc)
                            })
                            .collect();
                        b = b.variant(&format!("{}.{}", t.name, c.name), refs);
                    }
                    b
                })
                .collect();
            z3::datatype_builder::create_datatypes(builders)
        }
    }

    fn with_sorts(defs: Arc<Defs>, sorts: Vec<DatatypeSort>) -> Z3Solver {
        let mut s = Z3Solver::with_parts(defs, Some(z3::Solver::new()), sorts);
        s.set_timeout(DEFAULT_TIMEOUT);
        s
    }

    /// A solver in its initial state over `solver` (None: no Z3, nothing is called).
    fn with_parts(
        defs: Arc<Defs>,
        solver: Option<z3::Solver>,
        sorts: Vec<DatatypeSort>,
    ) -> Z3Solver {
        Z3Solver {
            defs,
            solver,
            sorts,
            consts: HashMap::new(),
            poisoned: vec![None],
            asserted: vec![(Vec::new(), false)],
            fresh: 0,
            side: Vec::new(),
            max_inline: 12,
            broken: None,
            based: false,
        }
    }

    /// Opens the base scope before the first use: Z3 then always uses its incremental
    /// solver, which honours the time-out (4.8.12's non-incremental tactic for nonlinear
    /// integers does not: a check of `x³ + y³ = z³` ran for many minutes with a 50 ms
    /// time-out). Lazily, because setting up the incremental solver costs about 16 M
    /// instructions, wasted when the fast path answers everything.
    fn base(&mut self) {
        if !self.based {
            if let Some(z) = &self.solver {
                z.push();
            }
            self.based = true;
        }
    }

    fn sort(&self, ty: Type) -> Result<Sort, String> {
        Ok(match ty {
            Type::Bool => Sort::bool(),
            Type::Int | Type::Range(..) => Sort::int(),
            Type::Str(..) => Sort::string(),
            Type::Adt(a) => self
                .sorts
                .get(a as usize)
                .ok_or_else(|| format!("unknown data type #{}", a))?
                .sort
                .clone(),
        })
    }

    /// The field types of constructor `c` of data type `ty` (ill-typed terms are errors, not
    /// panics: Z3 would reject them and the `z3` crate panics on that).
    fn fields(&self, ty: u32, c: u32) -> Result<Vec<Type>, String> {
        let def = self
            .defs
            .types
            .get(ty as usize)
            .filter(|_| (ty as usize) < self.sorts.len())
            .ok_or_else(|| format!("unknown data type #{}", ty))?;
        let ctor = def
            .ctors
            .get(c as usize)
            .ok_or_else(|| format!("`{}` has no constructor #{}", def.name, c))?;
        Ok(ctor.fields.iter().map(|f| f.1).collect())
    }

    /// Checks that an encoded term has the sort of `ty`.
    fn expect(&self, d: &Dynamic, ty: Type) -> Result<(), String> {
        if d.get_sort() == self.sort(ty)? {
            Ok(())
        } else {
            Err(format!(
                "ill-typed term: expected {}, got {}",
                self.defs.type_name(ty),
                d.get_sort()
            ))
        }
    }

    /// A constructor applied to encoded arguments, after checking arity and sorts.
    fn construct(&self, ty: u32, c: u32, args: &[Dynamic]) -> Result<Dynamic, String> {
        let fields = self.fields(ty, c)?;
        if fields.len() != args.len() {
            return Err(format!(
                "ill-typed term: constructor `{}` takes {} field(s), got {}",
                self.defs.types[ty as usize].ctors[c as usize].name,
                fields.len(),
                args.len()
            ));
        }
        for (a, f) in args.iter().zip(&fields) {
            self.expect(a, *f)?;
        }
        let refs: Vec<&dyn Ast> = args.iter().map(|a| a as &dyn Ast).collect();
        Ok(self.sorts[ty as usize].variants[c as usize]
            .constructor
            .apply(&refs))
    }

    fn constant(&mut self, v: &SymVar) -> Result<Dynamic, String> {
        if let Some(c) = self.consts.get(&(v.name.clone(), v.ty)) {
            return Ok(c.clone());
        }
        let c = match v.ty {
            Type::Bool => Dynamic::from_ast(&Bool::new_const(&*v.name)),
            Type::Int | Type::Range(..) => Dynamic::from_ast(&Int::new_const(&*v.name)),
            Type::Str(..) => Dynamic::from_ast(&z3::ast::String::new_const(&*v.name)),
            Type::Adt(_) => Dynamic::from_ast(&Datatype::new_const(&*v.name, &self.sort(v.ty)?)),
        };
        self.consts.insert((v.name.clone(), v.ty), c.clone());
        Ok(c)
    }

    fn value(&self, v: &Value) -> Result<Dynamic, String> {
        Ok(match v {
            Value::Bool(b) => Dynamic::from_ast(&Bool::from_bool(*b)),
            Value::Int(i) => Dynamic::from_ast(&Int::from_i64(*i)),
            Value::Str(s) => Dynamic::from_ast(&z3_string(s)),
            Value::Adt(t, c, fields) => {
                let args = fields
                    .iter()
                    .map(|f| self.value(f))
                    .collect::<Result<Vec<_>, _>>()?;
                self.construct(*t, *c, &args)?
            }
        })
    }

    fn encode(&mut self, t: &Term, depth: usize) -> Result<Dynamic, String> {
        let int = |d: Dynamic| {
            d.as_int()
                .ok_or_else(|| "expected an integer term".to_string())
        };
        let boolean = |d: Dynamic| {
            d.as_bool()
                .ok_or_else(|| "expected a boolean term".to_string())
        };
        let string = |d: Dynamic| {
            d.as_string()
                .ok_or_else(|| "expected a string term".to_string())
        };
        Ok(match t {
            Term::Const(v) => self.value(v)?,
            Term::Sym(v) => self.constant(v)?,
            Term::Unary(UnOp::Not, a) => Dynamic::from_ast(&boolean(self.encode(a, depth)?)?.not()),
            Term::Unary(UnOp::Neg, a) => {
                Dynamic::from_ast(&int(self.encode(a, depth)?)?.unary_minus())
            }
            Term::Binary(op, a, b) => {
                let x = self.encode(a, depth)?;
                let y = self.encode(b, depth)?;
                use BinOp::*;
                match op {
                    Eq | Ne => {
                        let e = x.safe_eq(y).map_err(|e| format!("{:?}", e))?;
                        Dynamic::from_ast(&if *op == Eq { e } else { e.not() })
                    }
                    And => Dynamic::from_ast(&Bool::and(&[boolean(x)?, boolean(y)?])),
                    Concat => {
                        Dynamic::from_ast(&z3::ast::String::concat(&[string(x)?, string(y)?]))
                    }
                    Or => Dynamic::from_ast(&Bool::or(&[boolean(x)?, boolean(y)?])),
                    Implies => Dynamic::from_ast(&boolean(x)?.implies(boolean(y)?)),
                    _ => {
                        let (x, y) = (int(x)?, int(y)?);
                        match op {
                            Add => Dynamic::from_ast(&Int::add(&[x, y])),
                            Sub => Dynamic::from_ast(&Int::sub(&[x, y])),
                            Mul => Dynamic::from_ast(&Int::mul(&[x, y])),
                            Div => Dynamic::from_ast(&x.div(y)),
                            Mod => Dynamic::from_ast(&x.modulo(y)),
                            Lt => Dynamic::from_ast(&x.lt(y)),
                            Le => Dynamic::from_ast(&x.le(y)),
                            Gt => Dynamic::from_ast(&x.gt(y)),
                            Ge => Dynamic::from_ast(&x.ge(y)),
                            _ => unreachable!("handled above"),
                        }
                    }
                }
            }
            Term::Ite(c, a, b) => {
                let c = boolean(self.encode(c, depth)?)?;
                let a = self.encode(a, depth)?;
                let b = self.encode(b, depth)?;
                c.ite(&a, &b)
            }
            Term::Ctor(ty, c, xs) => {
                let mut args = Vec::new();
                for x in xs {
                    args.push(self.encode(x, depth)?);
                }
                self.construct(*ty, *c, &args)?
            }
            Term::Field(a, ty, c, f) => {
                let x = self.encode(a, depth)?;
                let nf = self.fields(*ty, *c)?.len();
                self.expect(&x, Type::Adt(*ty))?;
                if *f as usize >= nf {
                    return Err(format!(
                        "ill-typed term: no field #{} in constructor #{}",
                        f, c
                    ));
                }
                self.sorts[*ty as usize].variants[*c as usize].accessors[*f as usize]
                    .apply(&[&x as &dyn Ast])
            }
            Term::Is(a, ty, c) => {
                let x = self.encode(a, depth)?;
                self.fields(*ty, *c)?;
                self.expect(&x, Type::Adt(*ty))?;
                self.sorts[*ty as usize].variants[*c as usize]
                    .tester
                    .apply(&[&x as &dyn Ast])
            }
            Term::Matches(a, r) => {
                let x = string(self.encode(a, depth)?)?;
                Dynamic::from_ast(&x.regex_matches(&regexp(&r.re)))
            }
            Term::Builtin(b, xs) => {
                let mut args = Vec::new();
                for x in xs {
                    args.push(self.encode(x, depth)?);
                }
                match (b, args.as_slice()) {
                    (Builtin::Len, [s]) => Dynamic::from_ast(&string(s.clone())?.length()),
                    (Builtin::At, [s, i]) => {
                        Dynamic::from_ast(&string(s.clone())?.at(int(i.clone())?))
                    }
                    (_, [_, s]) => {
                        let Some(Value::Str(cs)) = xs[0].as_const() else {
                            return Err(format!(
                                "`{}` needs a constant set of characters for the solver",
                                b.name()
                            ));
                        };
                        let s = string(s.clone())?;
                        self.take_while(*b, cs, s)
                    }
                    _ => {
                        return Err(format!(
                            "ill-typed term: `{}` with {} argument(s)",
                            b.name(),
                            xs.len()
                        ))
                    }
                }
            }
            Term::Call(f, xs) => {
                let func = self
                    .defs
                    .functions
                    .get(*f as usize)
                    .ok_or_else(|| format!("unknown function #{}", f))?;
                if func.params.len() != xs.len() {
                    return Err(format!(
                        "ill-typed term: `{}` takes {} argument(s), got {}",
                        func.name,
                        func.params.len(),
                        xs.len()
                    ));
                }
                if depth >= self.max_inline {
                    // cut the unfolding: an unconstrained result (an over-approximation; a
                    // `sat` answer is then confirmed by evaluating the model, see `check`)
                    self.fresh += 1;
                    self.asserted.last_mut().expect("scope").1 = true;
                    let ret = self.defs.functions[*f as usize].ret;
                    let name = format!(
                        "{}!cut{}",
                        self.defs.functions[*f as usize].name, self.fresh
                    );
                    return self.constant(&SymVar {
                        name: name.into(),
                        ty: ret,
                    });
                }
                let body = inline_call(&self.defs, *f, xs);
                self.encode(&body, depth + 1)?
            }
        })
    }

    /// `takeWhile(cs, s)` and its relatives: `s = pre ++ post` where `pre` is made of
    /// characters of `cs` (of others, for the `Not` variants) and `post` does not start with
    /// one; the constraints are kept aside and asserted with the formula.
    fn take_while(&mut self, b: Builtin, cs: &str, s: z3::ast::String) -> Dynamic {
        let set: Vec<(char, char)> = cs.chars().map(|c| (c, c)).collect();
        let class = regexp(&Re::Class(set));
        let keep = matches!(b, Builtin::TakeWhile | Builtin::DropWhile);
        self.fresh += 1;
        let pre = z3::ast::String::new_const(format!("#pre{}", self.fresh));
        let post = z3::ast::String::new_const(format!("#post{}", self.fresh));
        let pre_ok = if keep {
            class.star()
        } else {
            Regexp::concat(&[Regexp::full(), class.clone(), Regexp::full()]).complement()
        };
        let first_in = post.at(Int::from_i64(0)).regex_matches(&class);
        let stops = if keep { first_in.not() } else { first_in };
        let empty = z3::ast::String::from_str("").expect("no NUL");
        self.side.push(Bool::and(&[
            s.safe_eq(z3::ast::String::concat(&[pre.clone(), post.clone()]))
                .expect("string sorts"),
            pre.regex_matches(&pre_ok),
            Bool::or(&[post.safe_eq(&empty).expect("string sorts"), stops]),
        ]));
        Dynamic::from_ast(match b {
            Builtin::TakeWhile | Builtin::TakeWhileNot => &pre,
            _ => &post,
        })
    }

    /// A `sat` answer of an approximated formula: evaluate every assertion in the model.
    fn confirm(&mut self) -> SatResult {
        let terms: Vec<T> = self
            .asserted
            .iter()
            .flat_map(|a| a.0.iter().cloned())
            .collect();
        let mut vars: Vec<SymVar> = Vec::new();
        for t in &terms {
            for v in t.vars() {
                if !vars.contains(&v) {
                    vars.push(v);
                }
            }
        }
        let depth = self.max_inline;
        let unconfirmed =
            || SatResult::Unknown(format!("recursive functions unfolded only {} times", depth));
        let Some(vals) = self.model(&vars) else {
            return unconfirmed();
        };
        let defs = self.defs.clone();
        let all_true = terms.iter().all(|t| {
            let r = Term::subst(t, &defs, &|v: &SymVar| {
                vars.iter().position(|x| x == v).map(|i| vals[i].clone())
            });
            r.as_const() == Some(&Value::Bool(true))
        });
        if all_true {
            SatResult::Sat
        } else {
            unconfirmed()
        }
    }

    fn read(&self, model: &z3::Model, d: &Dynamic, ty: Type) -> Option<Value> {
        let v = model.eval(d, true)?;
        match ty {
            Type::Bool => v.as_bool()?.simplify().as_bool().map(Value::Bool),
            Type::Int | Type::Range(..) => v.as_int()?.simplify().as_i64().map(Value::Int),
            Type::Str(..) => {
                let sv = v.as_string()?;
                let raw = sv.simplify().as_string()?;
                if !raw.contains('\\') {
                    return Some(Value::Str(raw.into()));
                }
                // Z3 prints a backslash as is, so `\u{41}` may be an escape or four
                // characters: read the string character by character, where a lone `\` is
                // a backslash
                let n = model.eval(&sv.length(), true)?.simplify().as_i64()?;
                let mut out = String::new();
                for i in 0..n {
                    let c = model
                        .eval(&sv.at(Int::from_i64(i)), true)?
                        .simplify()
                        .as_string()?;
                    if c == "\\" {
                        out.push('\\');
                    } else {
                        out.push_str(&z3_unescape(&c));
                    }
                }
                Some(Value::Str(out.into()))
            }
            Type::Adt(a) => {
                let def = &self.defs.types[a as usize];
                let sort = &self.sorts[a as usize];
                for (ci, var) in sort.variants.iter().enumerate() {
                    let test = var.tester.apply(&[&v as &dyn Ast]).as_bool()?;
                    if model.eval(&test, true)?.simplify().as_bool() == Some(true) {
                        let mut fields = Vec::new();
                        for (fi, acc) in var.accessors.iter().enumerate() {
                            let fv = acc.apply(&[&v as &dyn Ast]);
                            fields.push(self.read(model, &fv, def.ctors[ci].fields[fi].1)?);
                        }
                        return Some(Value::Adt(a, ci as u32, fields.into()));
                    }
                }
                None
            }
        }
    }
}

impl Solver for Z3Solver {
    fn name(&self) -> String {
        format!("z3 {}", z3_version())
    }

    fn push(&mut self) {
        self.base();
        if let Some(z) = &self.solver {
            z.push();
        }
        self.poisoned.push(None);
        self.asserted.push((Vec::new(), false));
    }

    fn pop(&mut self) {
        // never below the base scope
        if self.poisoned.len() > 1 {
            if let Some(z) = &self.solver {
                z.pop(1);
            }
            self.poisoned.pop();
            self.asserted.pop();
        }
    }

    fn assert(&mut self, t: &T) {
        if self.solver.is_none() {
            // no Z3: `check` says why (`broken`)
            return;
        }
        self.base();
        self.side.clear();
        match self.encode(t, 0).and_then(|d| {
            d.as_bool()
                .ok_or_else(|| "not a boolean formula".to_string())
        }) {
            Ok(b) => {
                let z = self.solver.as_ref().expect("checked above");
                z.assert(&b);
                for s in std::mem::take(&mut self.side) {
                    z.assert(&s);
                }
                self.asserted.last_mut().expect("scope").0.push(t.clone());
            }
            Err(e) => {
                let top = self.poisoned.last_mut().expect("scope stack");
                top.get_or_insert(e);
            }
        }
    }

    fn check(&mut self) -> SatResult {
        if let Some(e) = &self.broken {
            return SatResult::Unknown(e.clone());
        }
        self.base();
        if let Some(e) = self.poisoned.iter().flatten().next() {
            return SatResult::Unknown(e.clone());
        }
        let Some(z) = &self.solver else {
            return SatResult::Unknown("no Z3 solver".into());
        };
        match z.check() {
            ZSat::Sat if self.asserted.iter().any(|a| a.1) => self.confirm(),
            ZSat::Sat => SatResult::Sat,
            ZSat::Unsat => SatResult::Unsat,
            ZSat::Unknown => SatResult::Unknown(
                z.get_reason_unknown()
                    .unwrap_or_else(|| "z3 gave up".to_string()),
            ),
        }
    }

    fn model(&mut self, vars: &[SymVar]) -> Option<Vec<Value>> {
        let model = self.solver.as_ref()?.get_model()?;
        let mut out = Vec::new();
        for v in vars {
            let c = self.constant(v).ok()?;
            out.push(self.read(&model, &c, v.ty)?);
        }
        Some(out)
    }

    fn decides_difference_logic(&self) -> bool {
        // Z3 decides linear integer arithmetic; a difference-logic check runs far below any
        // sensible time-out
        true
    }

    fn set_timeout(&mut self, t: Duration) {
        let Some(z) = &self.solver else { return };
        let mut p = Params::new();
        p.set_u32("timeout", t.as_millis().clamp(1, u32::MAX as u128) as u32);
        z.set_params(&p);
    }
}
