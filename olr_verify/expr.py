"""The one safe reader of expressions and relations written as text.

Every string that reaches sympy from a user, a claim TOML file or a shared artefact goes through
:func:`parse_expr` or :func:`parse_relation`. The text is parsed by Python's :mod:`ast` (mode
``eval``, nothing is executed) and the tree is walked against a whitelist; sympy objects are then
built directly. ``eval``, ``sympy.sympify`` and ``sympy.parse_expr`` are never called on the text.

Accepted
--------
- numbers: integers and decimals, read exactly (``0.5619`` is ``5619/10000``, ``1e-3`` is
  ``1/1000``); at most :data:`MAX_DIGITS` digits and a decimal exponent of at most
  :data:`MAX_DECIMAL_EXPONENT` in absolute value;
- names: with ``names=None`` any identifier not starting with ``_`` is a real symbol; otherwise the
  given names only. The constants ``pi``, ``E`` and ``oo`` are always known (``I`` is not);
- ``+ - * / **`` (``^`` is read as ``**``, as sympy does), unary ``+``/``-``, parentheses;
- one comparison ``<=``, ``<``, ``>=`` or ``>`` (only in :func:`parse_relation` and in the
  conditions of ``Piecewise``);
- calls of the functions in :data:`FUNCTIONS` (``Piecewise((expr, cond), ..., (expr, True))``,
  ``diff(expr, x[, order])``, ``at(expr, x, value)``: expr with x replaced by value, e.g. a derivative at a
  point ``at(diff(f, w), w, w_t)``).

Caps (so that reading cannot hang or exhaust memory): text length :data:`MAX_LENGTH`, nesting
depth :data:`MAX_DEPTH`, a numeric exponent of at most :data:`MAX_POWER` in absolute value, and a
number built from literals of at most :data:`MAX_BITS` bits.

Every failure raises :class:`ExprError` (a ``ValueError``) with a one-line message.

>>> parse_relation("x + exp(-x) <= exp(9*x**2/16)")
x + exp(-x) <= exp(9*x**2/16)
>>> parse_expr("0.25*a", names=["a"])
a/4
>>> parse_expr("x.__class__")
Traceback (most recent call last):
...
olr_verify.expr.ExprError: attribute is not allowed in an expression ('x.__class__')
"""
from __future__ import annotations

import ast
import math
import re
from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import Any, Callable

import sympy as sp
from sympy.matrices.utilities import dotprodsimp

from olr_verify import certified

certified.install()  # sympy's sign decisions on constants by arb balls, before anything is read

__all__ = ["ExprError", "FUNCTIONS", "parse_expr", "parse_relation", "parse_any", "exact_number", "exact_rational"]

MAX_LENGTH = 20_000
MAX_DEPTH = 60
MAX_DIGITS = 400
MAX_DECIMAL_EXPONENT = 400
MAX_POWER = 10_000
MAX_BITS = 100_000
MAX_DIFF_ORDER = 4  # total order of the diff() calls of one expression (each costs a symbolic derivative)
MAX_SYMBOLIC_POWER = 64  # an integer power of a non-numeric base (expand would blow up beyond)
MAX_ARGS = 12  # arguments of one call (Max/Min of many arguments are slow to build)
MAX_LATTICE_ARGS = 24  # arguments of all the Max/Min calls of one text (sympy merges nested ones: cubic time)
#: A constant argument of a function whose evaluation needs precision growing with the argument (exp, the
#: hyperbolic and trigonometric functions, erf, a constant power's exponent) is at most this in absolute value:
#: sympy decides the sign of 1 + exp(-exp(exp(15))) by computing exp(15) to millions of bits (minutes, unbounded).
MAX_CONSTANT_ARGUMENT = 10**6
_MAGNITUDE_CAPPED = {"exp", "expm1", "sinh", "cosh", "tanh", "sin", "cos", "tan", "erf", "erfc",
                     "Sigmoid", "Softplus", "Exprel"}


class ExprError(ValueError):
    """Text that is not an accepted expression; the message is one line."""


def _log(*args):
    if len(args) not in (1, 2):
        raise ExprError(f"log takes 1 or 2 arguments, got {len(args)}")
    if len(args) == 2 and args[1].is_number and not (args[1].is_positive and args[1] != 1):
        raise ExprError(f"log base must be a positive number other than 1, got {_short(args[1])}")
    return sp.log(*args)


def _exp(arg):
    # exp(log(u)) would evaluate to u and lose the condition u > 0: keep it as written
    return sp.exp(arg, evaluate=not arg.has(sp.log))


def _special(name: str) -> Callable[..., sp.Expr]:
    def build(*args):
        from olr_verify.prover import special

        return getattr(special, name)(*args)

    build.__name__ = name
    return build


def _cfunction(name: str) -> Callable[..., sp.Expr]:
    def build(*args):
        from sympy.codegen import cfunctions

        return getattr(cfunctions, name)(*args)

    build.__name__ = name
    return build


class floor(sp.floor):  # noqa: N801 - named as sympy prints and reads it
    """sympy's floor, except of a constant: sympy evaluates ``floor(c)`` in floating point and is wrong within
    about 1e-60 of an integer (``floor(tanh(300))`` read as 1); here a constant that is not rational has a floor
    only where an arb ball lies between two integers (:func:`olr_verify.certified.integer_part`), else it is
    refused. Every later evaluation (``subs``, ``at``) goes through this class too."""

    @classmethod
    def eval(cls, arg):
        if _inexact_constant(arg):
            return _integer_part(arg, up=False)
        return super().eval(arg)


class ceiling(sp.ceiling):  # noqa: N801 - named as sympy prints and reads it
    """sympy's ceiling, with :class:`floor`'s rule for constants."""

    @classmethod
    def eval(cls, arg):
        if _inexact_constant(arg):
            return _integer_part(arg, up=True)
        return super().eval(arg)


def _inexact_constant(arg: Any) -> bool:
    return isinstance(arg, sp.Expr) and arg.is_number and not arg.is_Rational and arg.is_finite is not False


def _integer_part(value: sp.Expr, up: bool) -> sp.Integer:
    n = certified.integer_part(value, up)
    if n is None:
        raise ExprError(f"{'ceiling' if up else 'floor'} of {_short(value)} is not decided: the value is an integer, "
                        "within 2^-8192 of one, or not a real number arb evaluates")
    return sp.Integer(n)


#: Functions with jumps or kinks: diff() of an expression holding one is refused (sympy's derivative ignores the
#: breaks: diff(Abs(w), w) at 0 would read sign(0) = 0, diff(Piecewise((1, w >= 0), (0, True)), w) would read 0).
NOT_DIFFERENTIABLE = (sp.Piecewise, sp.Abs, sp.Max, sp.Min, sp.sign, sp.floor, sp.ceiling, sp.Heaviside)

#: The functions that may be called, with the sympy object each name builds.
FUNCTIONS: dict[str, Callable[..., Any]] = {
    "exp": _exp, "log": _log, "ln": _log, "log1p": _cfunction("log1p"), "expm1": _cfunction("expm1"),
    "sqrt": sp.sqrt, "cbrt": sp.cbrt, "Abs": sp.Abs, "sign": sp.sign, "Max": sp.Max, "Min": sp.Min,
    "floor": floor, "ceiling": ceiling,
    "sin": sp.sin, "cos": sp.cos, "tan": sp.tan, "asin": sp.asin, "acos": sp.acos, "atan": sp.atan,
    "sinh": sp.sinh, "cosh": sp.cosh, "tanh": sp.tanh, "asinh": sp.asinh, "acosh": sp.acosh,
    "atanh": sp.atanh, "erf": sp.erf, "erfc": sp.erfc,
    "Sigmoid": _special("Sigmoid"), "Softplus": _special("Softplus"), "Exprel": _special("Exprel"),
    "Piecewise": None,  # built by _piecewise
    "diff": None,  # built by _diff
    "at": None,  # built by _at
}

def _square(m: Any) -> sp.ImmutableMatrix:
    """A matrix argument: a number is the 1 x 1 matrix (``u*T(u)`` in d = 1 is read as a number)."""
    return m if isinstance(m, sp.MatrixBase) else sp.ImmutableMatrix([[m]])


def _matrix_only(name: str, build: Callable[..., Any]) -> Callable[..., Any]:
    def call(*args):
        if len(args) != 1:
            raise ExprError(f"{name}() takes one matrix")
        m = _square(args[0])
        if name != "T" and not m.is_square:
            raise ExprError(f"{name}() needs a square matrix, got {m.rows}x{m.cols}")
        with dotprodsimp(False):  # sympy would simplify every product as it goes: minutes on a 4 x 4 matrix
            return _small(build(m))

    call.__name__ = name
    return call


#: Functions of matrices, read only where a caller asks for them (``functions=MATRIX_READER``: a matrix identity
#: of a paper folder); the prover and the kernel never see a matrix.
MATRIX_FUNCTIONS: dict[str, Callable[..., Any]] = {
    "T": _matrix_only("T", lambda m: m.T), "inv": _matrix_only("inv", lambda m: _inverse(m)),
    "det": _matrix_only("det", lambda m: m.det(method="berkowitz")), "tr": _matrix_only("tr", lambda m: m.trace()),
    "adj": _matrix_only("adj", lambda m: sp.ImmutableMatrix(m.adjugate(method="berkowitz"))),
    "eye": lambda n: _eye(n),
}
MAX_MATRIX_SIZE = 4  # rows and columns of a matrix symbol (symbolic inverses grow fast)
MAX_MATRIX_NODES = 200_000  # expression-tree nodes over a matrix's entries: beyond, reading stops


def _inverse(m: sp.MatrixBase) -> sp.ImmutableMatrix:
    """adj(M)/det(M), both by Berkowitz's division-free method: sympy's default elimination takes minutes on a
    symbolic 4 x 4 matrix (and its default determinant simplifies as it goes, seconds)."""
    det = m.det(method="berkowitz")
    if det == 0:
        raise ExprError("inv() of a matrix whose determinant is 0")
    return sp.ImmutableMatrix(m.adjugate(method="berkowitz") / det)


def _eye(n: Any) -> sp.ImmutableMatrix:
    if isinstance(n, sp.MatrixBase) or not (n.is_Integer and 1 <= n <= MAX_MATRIX_SIZE):
        raise ExprError(f"eye(n) takes an integer n from 1 to {MAX_MATRIX_SIZE}")
    return sp.ImmutableMatrix(sp.eye(int(n)))


def beyond(values: Iterable[Any], cap: int) -> bool:
    """The expression trees of ``values`` hold more than ``cap`` nodes in all (the nodes ``sp.preorder_traversal``
    walks: a subtree met twice counts twice)."""
    nodes = 0
    for value in values:
        nodes += _tree_size(value) if isinstance(value, sp.Basic) else _walked(value)
        if nodes > cap:
            return True
    return False


def _tree_size(root: sp.Basic) -> int:
    """Nodes of ``root``'s tree, each distinct subtree's size computed once: a reader checks the size of a matrix
    after every product, and walking the whole tree each time was a third of the matrix identities' time. An
    explicit stack, not recursion: an entry hundreds of levels deep (chained ``let`` definitions) is counted as the
    generator walk counted it, not refused as too deep."""
    if len(_SIZES) > MAX_SIZES:
        _SIZES.clear()
    stack = [(root, False)]
    while stack:
        e, ready = stack.pop()
        if e in _SIZES:
            continue
        if ready:
            _SIZES[e] = 1 + sum(_SIZES[a] if isinstance(a, sp.Basic) else _walked(a) for a in e.args)
        else:
            stack.append((e, True))
            stack.extend((a, False) for a in e.args if isinstance(a, sp.Basic))
    return _SIZES[root]


def _walked(value: Any) -> int:
    return sum(1 for _ in sp.preorder_traversal(value))


_SIZES: dict[sp.Basic, int] = {}
MAX_SIZES = 1 << 16  # subtrees whose size is remembered (per process; forgotten all at once beyond)


def _small(value: Any) -> Any:
    """``value`` unless its entries hold more than :data:`MAX_MATRIX_NODES` nodes (inverses of inverses, powers
    of 4 x 4 matrices grow without bound; nothing else limits the time that reading them takes)."""
    if isinstance(value, sp.MatrixBase) and beyond(value, MAX_MATRIX_NODES):
        raise ExprError(f"a matrix expression beyond {MAX_MATRIX_NODES} nodes: too large to decide")
    return value


#: Functions defined by the prover's own code (``olr_verify/prover/special.py``): a reader given
#: ``functions=PLAIN_FUNCTIONS`` (the proof kernel's) refuses them and never imports that code.
SEARCH_FUNCTIONS = frozenset({"Sigmoid", "Softplus", "Exprel"})
PLAIN_FUNCTIONS = frozenset(FUNCTIONS) - SEARCH_FUNCTIONS
MATRIX_READER = PLAIN_FUNCTIONS | frozenset(MATRIX_FUNCTIONS)
_CALLABLE = {**FUNCTIONS, **MATRIX_FUNCTIONS}

CONSTANTS: dict[str, sp.Expr] = {"pi": sp.pi, "E": sp.E, "oo": sp.oo}
#: Names that sympy would read as something else than a real variable; refused unless declared.
RESERVED = frozenset({"I", "zoo", "nan"})
#: Names a domain may not give a variable: a reader that does not know the domain's names would read a constant.
NOT_A_VARIABLE = frozenset(CONSTANTS) | RESERVED


def check_variable_names(names) -> None:
    """ValueError when a domain names a variable after a constant or a reserved name (:data:`NOT_A_VARIABLE`)."""
    taken = sorted(set(names) & NOT_A_VARIABLE)
    if taken:
        raise ValueError(f"a variable may not be named {taken[0]} (a constant: {', '.join(sorted(NOT_A_VARIABLE))})")

_RELATIONS = {ast.LtE: sp.LessThan, ast.Lt: sp.StrictLessThan, ast.GtE: sp.GreaterThan,
              ast.Gt: sp.StrictGreaterThan}
_BINARY = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b,
           ast.Div: lambda a, b: a / b}
_NUMBER = re.compile(r"(?P<int>\d*)(?:\.(?P<frac>\d*))?(?:[eE](?P<exp>[+-]?\d+))?")


def _short(text: str, limit: int = 60) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def exact_number(literal: str) -> sp.Rational:
    """The exact rational written by a decimal literal (``"1.5e-3"`` -> ``3/2000``), size-capped.

    >>> exact_number("0.5619")
    5619/10000
    >>> exact_number("1e999999999")
    Traceback (most recent call last):
    ...
    olr_verify.expr.ExprError: number 1e999999999 has an exponent beyond 400
    """
    text = literal.replace("_", "")
    m = _NUMBER.fullmatch(text)
    if not m or not (m.group("int") or m.group("frac")):
        raise ExprError(f"not a number: {_short(literal)!r}")
    digits = (m.group("int") or "") + (m.group("frac") or "")
    if len(digits) > MAX_DIGITS:
        raise ExprError(f"number {_short(literal)} has more than {MAX_DIGITS} digits")
    exp_text = m.group("exp") or "0"
    if len(exp_text.lstrip("+-")) > 6 or abs(int(exp_text)) > MAX_DECIMAL_EXPONENT:
        raise ExprError(f"number {_short(literal)} has an exponent beyond {MAX_DECIMAL_EXPONENT}")
    shift = int(exp_text) - len(m.group("frac") or "")
    value = sp.Integer(int(digits or "0"))
    return value * sp.Integer(10) ** shift if shift >= 0 else value / sp.Integer(10) ** (-shift)


def exact_rational(text: object) -> Fraction:
    """A :class:`fractions.Fraction` from ``"p/q"``, ``"-0.25"``, ``"1e-3"`` or an int (size-capped).

    >>> exact_rational("-3/5")
    Fraction(-3, 5)
    """
    if isinstance(text, bool) or not isinstance(text, (str, int)):
        raise ExprError(f"expected an exact number as a string, got {type(text).__name__}")
    value = parse_expr(str(text), names={})
    if not value.is_Rational:
        raise ExprError(f"not a rational number: {_short(str(text))!r}")
    return Fraction(int(value.p), int(value.q))


def _bits(q: sp.Rational) -> int:
    return max(int(abs(q.p)).bit_length(), int(q.q).bit_length(), 1)


def _bounded_constant(arg: sp.Expr, where: str) -> None:
    """A constant ``arg`` (no symbols) is at most :data:`MAX_CONSTANT_ARGUMENT` in absolute value; its pieces were
    bounded the same way when they were read, so this low-precision evaluation is cheap."""
    if isinstance(arg, sp.MatrixBase) or arg.free_symbols or not arg.is_number or arg.is_Rational and \
            abs(arg) <= MAX_CONSTANT_ARGUMENT:
        return
    size = sp.Abs(arg).evalf(5, maxn=200)
    if size.is_comparable and size > MAX_CONSTANT_ARGUMENT:
        raise ExprError(f"the constant argument {_short(arg)} of {where} is beyond {MAX_CONSTANT_ARGUMENT:.0e} in "
                        "absolute value")


def _power(base: sp.Expr, exponent: sp.Expr) -> sp.Expr:
    if base.is_number and not exponent.is_Integer:
        _bounded_constant(exponent, "a power")
    if exponent.is_Number:
        if not base.is_number and exponent.is_Rational and abs(exponent) > MAX_SYMBOLIC_POWER:
            raise ExprError(f"exponent {_short(exponent)} of a non-numeric base is beyond {MAX_SYMBOLIC_POWER}")
        if exponent.is_Rational and abs(exponent) > MAX_POWER:
            raise ExprError(f"exponent {_short(exponent)} is beyond {MAX_POWER} in absolute value")
        if base.is_Rational and exponent.is_Rational:
            if _bits(base) * math.ceil(abs(exponent)) > MAX_BITS:
                raise ExprError(f"{_short(base)}**{_short(exponent)} has more than {MAX_BITS} bits")
        if isinstance(base, sp.Pow) and not base.exp.is_integer and exponent.is_integer and exponent.is_even:
            return sp.Pow(base, exponent, evaluate=False)  # sqrt(u)**2 would become u and lose u >= 0
    elif exponent.is_number and base.is_number and exponent.has(sp.oo, -sp.oo, sp.zoo):
        raise ExprError("an infinite exponent is not allowed")
    return sp.Pow(base, exponent)


def _operate(op: type, a: Any, b: Any) -> Any:
    """``a op b`` for + - * /; with matrices: sums of equal shapes, products of matching shapes (``*`` is the
    matrix product, a number times a matrix scales it), a matrix divided by a number. A 1 x 1 matrix added to a
    number is that number."""
    if op in (ast.Add, ast.Sub):
        a, b = (x[0, 0] if isinstance(x, sp.MatrixBase) and x.shape == (1, 1) and not isinstance(y, sp.MatrixBase)
                else x for x, y in ((a, b), (b, a)))
    if isinstance(a, sp.MatrixBase) or isinstance(b, sp.MatrixBase):
        if op is ast.Div and isinstance(b, sp.MatrixBase):
            raise ExprError("division by a matrix: write inv(M)")
        if op in (ast.Add, ast.Sub) and not (isinstance(a, sp.MatrixBase) and isinstance(b, sp.MatrixBase)):
            raise ExprError("a number added to a matrix: write the number times eye(n)")
        try:
            with dotprodsimp(False):
                return _small(sp.ImmutableMatrix(_BINARY[op](a, b)))
        except (TypeError, ValueError) as exc:  # sympy's ShapeError is a ValueError
            raise ExprError(f"matrix shapes do not match: {_short(str(exc))}") from None
    return _BINARY[op](a, b)


def _matrix_power(base: Any, exponent: Any) -> Any:
    """M**k for a square matrix M and an integer |k| <= 4 (M**-1 is the inverse), by repeated products."""
    if isinstance(exponent, sp.MatrixBase) or not (exponent.is_Integer and abs(exponent) <= 4):
        raise ExprError("a matrix power takes an integer exponent from -4 to 4")
    if not base.is_square:
        raise ExprError(f"power of a {base.rows}x{base.cols} matrix")
    k = int(exponent)
    with dotprodsimp(False):
        factor = _inverse(base) if k < 0 else base
        out = sp.ImmutableMatrix(sp.eye(base.rows))
        for _ in range(abs(k)):
            out = _small(sp.ImmutableMatrix(out * factor))
    return out


class _Reader:
    """One walk over the tree of ``text``; see the module docstring for what is accepted."""

    def __init__(self, text: str, names: Mapping[str, sp.Basic] | None, real: bool, functions=FUNCTIONS):
        self.text = text
        self.functions = functions
        self.names = names
        self.real = real
        self.used: set[str] = set()  # names read so far (an infinity must come from the name oo)
        self.diff_order = 0  # total order of the diff() calls read so far
        self.lattice_args = 0  # arguments of the Max/Min calls read so far

    # ---------------------------------------------------------------- entry
    def read(self) -> sp.Basic:
        # "^" means "**" (as in sympy); replaced before parsing so that it binds like "**"
        self.source = source_of(self.text)
        if not self.source.isascii():
            bad = next(c for c in self.source if not c.isascii())
            raise ExprError(f"non-ASCII character {bad!r} (U+{ord(bad):04X}) in {_short(self.text)!r}: "
                            "look-alike letters are refused, write names in ASCII")
        try:
            tree = ast.parse(self.source, mode="eval")
        except SyntaxError as exc:
            raise ExprError(f"syntax error in {_short(self.text)!r}: {exc.msg}") from None
        except (ValueError, MemoryError, RecursionError) as exc:
            raise ExprError(f"cannot read {_short(self.text)!r}: {type(exc).__name__}") from None
        self.line_starts = _line_starts(self.source)
        return self.node(tree.body, 0, top=True)

    def segment(self, n: ast.AST) -> str:
        """The source text of node ``n`` (``ast.get_source_segment`` splits the whole source on every call:
        quadratic in a long expression's number of constants). Offsets count bytes: the source is ASCII."""
        return _segment(self.source, self.line_starts, n)

    # ---------------------------------------------------------------- nodes
    def node(self, n: ast.AST, depth: int, top: bool = False) -> sp.Basic:
        if depth > MAX_DEPTH:
            raise ExprError(f"expression nested deeper than {MAX_DEPTH} levels")
        if isinstance(n, ast.Constant):
            return self.constant(n)
        if isinstance(n, ast.Name):
            return self.name(n.id)
        if isinstance(n, ast.UnaryOp) and isinstance(n.op, (ast.USub, ast.UAdd)):
            val = self.expr(n.operand, depth + 1)
            return -val if isinstance(n.op, ast.USub) else val
        if isinstance(n, ast.BinOp):
            return self.binary(n, depth)
        if isinstance(n, ast.Call):
            return self.call(n, depth)
        if isinstance(n, ast.Compare):
            if not top:
                raise ExprError("a comparison may only appear once, at the top or in a Piecewise condition")
            return self.compare(n, depth)
        raise ExprError(f"{type(n).__name__.lower()} is not allowed in an expression "
                        f"({_short(self.segment(n))!r})")

    def scalar(self, n: ast.AST, depth: int) -> sp.Expr:
        val = self.expr(n, depth)
        if isinstance(val, sp.MatrixBase):
            raise ExprError(f"a matrix where a number is needed: {_short(self.segment(n))!r}")
        return val

    def expr(self, n: ast.AST, depth: int) -> sp.Expr:
        val = self.node(n, depth)
        if _is_truth(val):
            raise ExprError(f"a truth value is not a number: {_short(self.segment(n))!r}")
        return val

    def constant(self, n: ast.Constant) -> sp.Basic:
        if isinstance(n.value, bool) or n.value is None or not isinstance(n.value, (int, float)):
            raise ExprError(f"constant {_short(repr(n.value))} is not allowed")
        return exact_number(self.segment(n))

    def name(self, ident: str) -> sp.Basic:
        self.used.add(ident)
        if ident.startswith("_"):
            raise ExprError(f"name {ident!r} is not allowed (names may not start with '_')")
        if self.names is not None and ident in self.names:
            return self.names[ident]
        if ident in CONSTANTS:
            return CONSTANTS[ident]
        if ident in FUNCTIONS:
            raise ExprError(f"function {ident!r} must be called with arguments")
        if ident in RESERVED:
            raise ExprError(f"name {ident!r} is not allowed (complex/undefined values are not supported)")
        if self.names is None:
            return sp.Symbol(ident, real=True) if self.real else sp.Symbol(ident)
        allowed = ", ".join(sorted(self.names)) or "none"
        raise ExprError(f"unknown name {ident!r} (allowed: {_short(allowed)})")

    def binary(self, n: ast.BinOp, depth: int) -> sp.Expr:
        if isinstance(n.op, ast.Pow):
            base, exponent = self.expr(n.left, depth + 1), self.expr(n.right, depth + 1)
            if isinstance(base, sp.MatrixBase) or isinstance(exponent, sp.MatrixBase):
                return self.finite(_matrix_power(base, exponent))
            return self.finite(_power(base, exponent))
        if type(n.op) not in _BINARY:
            raise ExprError(f"operator {type(n.op).__name__} is not allowed (use + - * / **)")
        # a long sum a + b - c + ... is a left spine of BinOps: walk it without recursion
        group = (ast.Add, ast.Sub) if isinstance(n.op, (ast.Add, ast.Sub)) else (ast.Mult, ast.Div)
        chain: list[tuple[type, ast.AST]] = []
        while isinstance(n, ast.BinOp) and isinstance(n.op, group):
            chain.append((type(n.op), n.right))
            n = n.left
        value = self.expr(n, depth + 1)
        for op, right in reversed(chain):
            value = self.finite(_operate(op, value, self.expr(right, depth + 1)))
        return value

    def finite(self, value: sp.Expr) -> sp.Expr:
        if isinstance(value, sp.MatrixBase) and value.shape == (1, 1):
            value = value[0, 0]  # u^T A v is a number
        if value.has(sp.zoo, sp.nan):
            raise ExprError(f"undefined value (division by zero?) in {_short(self.text)!r}")
        if value.is_Rational and _bits(value) > MAX_BITS:
            raise ExprError(f"a number of more than {MAX_BITS} bits in {_short(self.text)!r}")
        if value.has(sp.I) or value.has(sp.AccumBounds):
            raise ExprError(f"complex or undefined value (e.g. sqrt or log of a negative number) in "
                            f"{_short(self.text)!r}")
        if value.has(sp.oo, -sp.oo) and "oo" not in self.used:
            raise ExprError(f"infinite value from finite arguments in {_short(self.text)!r}")
        return value

    def call(self, n: ast.Call, depth: int) -> sp.Expr:
        if not isinstance(n.func, ast.Name):
            raise ExprError(f"only named functions may be called ({_short(self.segment(n))!r})")
        fname = n.func.id
        if fname.startswith("_") or fname not in self.functions or fname not in _CALLABLE:
            raise ExprError(f"unknown function {fname!r} (known: {', '.join(sorted(self.functions))})")
        if n.keywords:
            raise ExprError(f"{fname}() takes no keyword arguments")
        if not n.args or any(isinstance(a, ast.Starred) for a in n.args):
            raise ExprError(f"{fname}() needs plain arguments")
        if len(n.args) > MAX_ARGS:
            raise ExprError(f"{fname}() takes at most {MAX_ARGS} arguments here, got {len(n.args)}")
        if fname in ("Max", "Min"):
            self.lattice_args += len(n.args)
            if self.lattice_args > MAX_LATTICE_ARGS:
                raise ExprError(f"more than {MAX_LATTICE_ARGS} arguments of Max/Min in one expression")
        if fname == "Piecewise":
            return self.piecewise(n.args, depth)
        if fname == "diff":
            return self.diff(n.args, depth)
        if fname == "at":
            return self.at(n.args, depth)
        args = [self.expr(a, depth + 1) for a in n.args]
        if fname not in MATRIX_FUNCTIONS and any(isinstance(a, sp.MatrixBase) for a in args):
            raise ExprError(f"{fname}() takes numbers, not a matrix ({_short(self.segment(n))!r})")
        if fname in _MAGNITUDE_CAPPED:
            for a in args:
                _bounded_constant(a, f"{fname}()")
        try:
            return self.finite(_CALLABLE[fname](*args))
        except ExprError:
            raise
        except (TypeError, ValueError) as exc:
            raise ExprError(f"bad arguments to {fname}(): {_short(str(exc))}") from None

    def piecewise(self, args: list[ast.AST], depth: int) -> sp.Expr:
        pieces = []
        for a in args:
            if not (isinstance(a, ast.Tuple) and len(a.elts) == 2):
                raise ExprError("Piecewise takes (expression, condition) pairs")
            val = self.scalar(a.elts[0], depth + 2)
            c = a.elts[1]
            if isinstance(c, ast.Constant) and isinstance(c.value, bool):
                cond = sp.true if c.value else sp.false
            elif isinstance(c, ast.Compare):
                cond = self.compare(c, depth + 2)
                if not cond.free_symbols:  # between numbers (a let or an at() put a value in): decide it
                    cond = cond.func(cond.lhs, cond.rhs)
                    if cond not in (sp.true, sp.false):
                        raise ExprError("a Piecewise condition between numbers that cannot be compared")
            else:
                raise ExprError("a Piecewise condition is a comparison, True or False")
            pieces.append((val, cond))
        try:
            return sp.Piecewise(*pieces)
        except (TypeError, ValueError) as exc:
            raise ExprError(f"bad Piecewise: {_short(str(exc))}") from None

    def diff(self, args: list[ast.AST], depth: int) -> sp.Expr:
        if len(args) not in (2, 3):
            raise ExprError("diff takes (expression, variable[, order])")
        expr = self.scalar(args[0], depth + 1)
        var = self.scalar(args[1], depth + 1)
        if not (isinstance(args[1], ast.Name) and isinstance(var, sp.Symbol)):
            raise ExprError("diff: the second argument must be a variable, written as its name")
        if expr.has(*NOT_DIFFERENTIABLE):
            raise ExprError("diff() of an expression with Piecewise, Abs, Max, Min, sign, floor or ceiling: sympy "
                            "differentiates piece by piece and drops the breaks, where no derivative may exist "
                            "(write the derivative of each piece on its own range)")
        order = self.scalar(args[2], depth + 1) if len(args) == 3 else sp.Integer(1)
        if not (order.is_Integer and 0 <= order <= MAX_DIFF_ORDER):
            raise ExprError(f"diff: the order must be an integer in 0..{MAX_DIFF_ORDER}")
        self.diff_order += int(order)
        if self.diff_order > MAX_DIFF_ORDER:
            raise ExprError(f"diff: derivatives of total order beyond {MAX_DIFF_ORDER} in one expression")
        return sp.diff(expr, var, int(order))

    def at(self, args: list[ast.AST], depth: int) -> sp.Expr:
        if len(args) != 3:
            raise ExprError("at takes (expression, variable, value)")
        expr, var, value = (self.scalar(a, depth + 1) for a in args)
        if not (isinstance(args[1], ast.Name) and isinstance(var, sp.Symbol)):  # +x or 1*x would hide it from
            raise ExprError("at: the second argument must be a variable, written as its name")  # bound_by_at
        if value.has(sp.oo, -sp.oo, sp.zoo):
            raise ExprError("at: the value must be finite (a limit is not a value)")
        return self.finite(expr.subs(var, value))

    def compare(self, n: ast.Compare, depth: int) -> sp.Basic:
        if len(n.ops) != 1:
            raise ExprError("only one comparison is allowed (no chains such as a <= x <= b)")
        rel = _RELATIONS.get(type(n.ops[0]))
        if rel is None:
            raise ExprError(f"comparison {type(n.ops[0]).__name__} is not allowed (use <=, <, >= or >)")
        lhs, rhs = self.scalar(n.left, depth + 1), self.scalar(n.comparators[0], depth + 1)
        return rel(lhs, rhs, evaluate=False)


_NEWLINE = re.compile(r"\r\n|\r|\n")  # the line ends of Python's tokenizer (no form feed, unlike splitlines)


def _line_starts(source: str) -> list[int]:
    return [0] + [m.end() for m in _NEWLINE.finditer(source)]


def _segment(source: str, line_starts: list[int], n: ast.AST) -> str:
    """``ast.get_source_segment(source, n)`` for an ASCII source, in time proportional to the segment."""
    return source[line_starts[n.lineno - 1] + n.col_offset:line_starts[n.end_lineno - 1] + n.end_col_offset]


def _is_truth(value: sp.Basic) -> bool:
    """A relation or truth value (sympy's Symbol is also a Boolean, so test the kinds)."""
    from sympy.logic.boolalg import BooleanAtom, BooleanFunction

    return isinstance(value, (sp.core.relational.Relational, BooleanAtom, BooleanFunction))


def _namespace(names: Mapping[str, sp.Basic] | Iterable[str] | None, real: bool):
    if names is None or isinstance(names, Mapping):
        return names
    return {str(k): (sp.Symbol(str(k), real=True) if real else sp.Symbol(str(k))) for k in names}


def parse_any(text: str, names: Mapping[str, sp.Basic] | Iterable[str] | None = None, *,
              real: bool = True, functions=FUNCTIONS) -> sp.Basic:
    """An expression, or a relation when ``text`` holds one top-level comparison.

    ``names``: ``None`` (any identifier is a symbol), an iterable of names (symbols made here) or a
    mapping name -> sympy object. ``real``: whether symbols made here are declared real. ``functions``: the
    names of :data:`FUNCTIONS` that may be called (e.g. :data:`PLAIN_FUNCTIONS`).
    """
    if not isinstance(text, str):
        raise ExprError(f"expected a string, got {type(text).__name__}")
    if len(text) > MAX_LENGTH:
        raise ExprError(f"expression longer than {MAX_LENGTH} characters")
    if not text.strip():
        raise ExprError("empty expression")
    try:
        return _Reader(text, _namespace(names, real), real, functions).read()
    except RecursionError:
        raise ExprError(f"expression nested too deeply: {_short(text)!r}") from None


def source_of(text: str) -> str:
    """The Python source the reader parses: ``text`` stripped, ``^`` read as ``**`` (as sympy does)."""
    return str(text).strip().replace("^", "**")


def same_text(a: str, b: str) -> bool:
    """Two expressions written alike, whitespace aside: an identity between them would certify nothing."""
    return " ".join(str(a).split()) == " ".join(str(b).split())


def operands(text: str) -> list[str]:
    """The text of every operand written in ``text`` (calls, operations; not names or numbers) and of 1/(b) for
    each division by b. Read one by one they show what reading the whole may cancel: sympy reads x/x as 1 and
    log(x) - log(x) as 0, but 1/x and log(x) are among the operands. Every piece of a Piecewise is an operand (on
    the whole domain: stricter than needed, never looser). For at(f, x, v), the operands of f are listed as written
    and also at x = v (``at(op, x, v)``): v may lie outside x's range. Texts are cut from the source as written
    (a decimal keeps all its digits)."""
    source = source_of(text)
    starts = _line_starts(source) if source.isascii() else None  # _segment's offsets count bytes
    out: list[str] = []

    def seg(node: ast.AST) -> str:
        if starts is not None:
            return _segment(source, starts, node)
        return ast.get_source_segment(source, node) or ast.unparse(node)

    def walk(node: ast.AST, into: list[str]) -> None:
        if isinstance(node, (ast.Name, ast.Constant)):
            return
        into.append(seg(node))
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
            into.append(f"1/({seg(node.right)})")
        if isinstance(node, ast.Call):
            name = node.func.id if isinstance(node.func, ast.Name) else ""
            if name == "Piecewise":
                for piece in node.args:
                    for part in (piece.elts[:1] if isinstance(piece, ast.Tuple) else [piece]):
                        walk(part, into)
                return
            if name == "at" and len(node.args) == 3:
                inner: list[str] = []
                walk(node.args[0], inner)
                into.extend(inner)
                into.extend(f"at({op}, {seg(node.args[1])}, {seg(node.args[2])})" for op in inner)
                walk(node.args[2], into)
                return
            skip = {"diff": (1, 2)}.get(name, ())  # the variable and the order: not operands
            for i, arg in enumerate(node.args):
                if i not in skip:
                    walk(arg, into)
            return
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.expr):
                walk(child, into)

    walk(ast.parse(source, mode="eval").body, out)
    return out


def expand_names(text: str, definitions: Mapping[str, str]) -> str:
    """``text`` with every name of ``definitions`` replaced by its definition (read in order, each may use the
    ones before it), as text: what a ``let`` of a paper folder stands for, written out. Only the syntax tree is
    rewritten (nothing is evaluated); the result is read by the safe reader like any text."""
    trees: dict[str, ast.AST] = {}

    class _Put(ast.NodeTransformer):
        def visit_Name(self, node: ast.Name) -> ast.AST:
            return trees.get(node.id, node)

        def visit_Call(self, node: ast.Call) -> ast.AST:  # a function's own name is not a definition's
            node.args = [self.visit(arg) for arg in node.args]
            return node

    def tree(source: str) -> ast.AST:
        try:
            return _Put().visit(ast.parse(source_of(source), mode="eval").body)
        except SyntaxError as exc:
            raise ExprError(f"syntax error in {_short(source)!r}: {exc.msg}") from None

    for name, definition in definitions.items():
        trees[name] = tree(str(definition))
    out = ast.unparse(tree(str(text)))
    if len(out) > MAX_LENGTH:
        raise ExprError(f"with its definitions put in, {_short(text)!r} is longer than {MAX_LENGTH} characters")
    return out


def called(text: str) -> set[str]:
    """The names of the functions that ``text`` calls (read from its syntax tree, nothing is evaluated)."""
    tree = ast.parse(source_of(text), mode="eval")
    return {call.func.id for call in ast.walk(tree) if isinstance(call, ast.Call) and isinstance(call.func, ast.Name)}


def bound_by_at(text: str) -> set[str]:
    """The variables that an at(f, x, v) of ``text`` replaces: f holds at points outside x's range."""
    tree = ast.parse(source_of(text), mode="eval")
    return {call.args[1].id for call in ast.walk(tree)
            if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == "at"
            and len(call.args) == 3 and isinstance(call.args[1], ast.Name)}


def parse_expr(text: str, names: Mapping[str, sp.Basic] | Iterable[str] | None = None, *,
               real: bool = True, functions=FUNCTIONS) -> sp.Expr:
    """A sympy expression (no comparison) read safely from ``text``."""
    out = parse_any(text, names, real=real, functions=functions)
    if _is_truth(out):
        raise ExprError(f"expected an expression, got a relation: {_short(text)!r}")
    return out


def parse_relation(text: str, names: Mapping[str, sp.Basic] | Iterable[str] | None = None, *,
                   real: bool = True, functions=FUNCTIONS) -> sp.Rel:
    """An unevaluated relation ``lhs OP rhs`` (OP one of <=, <, >=, >) read safely from ``text``."""
    out = parse_any(text, names, real=real, functions=functions)
    if not isinstance(out, (sp.LessThan, sp.StrictLessThan, sp.GreaterThan, sp.StrictGreaterThan)):
        raise ExprError(f"expected a relation with <=, <, >= or >: {_short(text)!r}")
    return out
