"""Exit codes come from one table, and error classes that are never raised are gone."""

from __future__ import annotations

import ast
import warnings
from pathlib import Path

import pytest

import artemiskit
from artemiskit._exit_codes import STOP_EXIT_CODES, ExitCode

PACKAGE = Path(artemiskit.__file__).resolve().parent
CLI = PACKAGE.parent / "artemiskit_cli"
PLUGIN = PACKAGE.parent / "artemiskit_pytest"
TABLE = PACKAGE / "_exit_codes.py"
SPEC_CODES = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 130}


#: Calls whose arguments are exit codes: `sys.exit`, `ctx.exit`, `os._exit`,
#: `SystemExit(...)`.
_EXITS = {"exit", "_exit", "SystemExit"}
#: Files whose exit statuses are not ArtemisKit's: the MCP launcher is a helper
#: process run by path (``python -I``, the standard library only, so it cannot read
#: the table), and only its owner, which discards it, sees its status.
_NOT_AKIT = {PACKAGE / "tools" / "_mcp_launcher.py"}
#: Comparisons that test an exit code (``code < 0x20`` compares a character code).
_EQUALITY = (ast.Eq, ast.NotEq)


def _is_int(node: ast.AST | None) -> bool:
    return (
        isinstance(node, ast.Constant)
        and isinstance(node.value, int)
        and not isinstance(node.value, bool)
    )


def _names_a_code(node: ast.AST) -> bool:
    """``code``, ``x.exit_code``, ``summary["exit_code"]`` and the like."""
    name = None
    if isinstance(node, ast.Name):
        name = node.id
    elif isinstance(node, ast.Attribute):
        name = node.attr
    elif isinstance(node, ast.Subscript):
        key = node.slice
        if isinstance(key, ast.Constant) and isinstance(key.value, str):
            return key.value.endswith("exit_code")
    return name is not None and (name == "code" or name.endswith("exit_code"))


def _exit_call_name(node: ast.AST) -> str | None:
    """The called name if ``node`` is a call of one of `_EXITS`."""
    if not isinstance(node, ast.Call):
        return None
    function = node.func
    if isinstance(function, ast.Attribute):
        name = function.attr
    elif isinstance(function, ast.Name):
        name = function.id
    else:
        return None
    return name if name in _EXITS else None


def _exiting_functions(source: str) -> set[str]:
    """Functions whose result goes straight to an exit call: ``sys.exit(f(...))``
    makes ``f``'s return values exit codes, wherever ``f`` is defined."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if _exit_call_name(node) is None:
            continue
        assert isinstance(node, ast.Call)
        for argument in node.args:
            if isinstance(argument, ast.Call):
                function = argument.func
                if isinstance(function, ast.Name):
                    found.add(function.id)
                elif isinstance(function, ast.Attribute):
                    found.add(function.attr)
    return found


class _ExitCodeLiterals(ast.NodeVisitor):
    """Finds integer literals used as exit codes.

    Args:
        exiting: Names of functions whose return values are exit codes (besides
            those named ``*exit_code*``): see `_exiting_functions`.
    """

    def __init__(self, exiting: frozenset[str] = frozenset()) -> None:
        self.found: list[int] = []
        self._exiting = exiting
        self._in_exit_code_function = False

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        outer = self._in_exit_code_function
        self._in_exit_code_function = (
            "exit_code" in node.name or node.name in self._exiting
        )
        self.generic_visit(node)
        self._in_exit_code_function = outer

    visit_AsyncFunctionDef = visit_FunctionDef  # type: ignore[assignment]

    def visit_keyword(self, node: ast.keyword) -> None:
        if node.arg is not None and node.arg.endswith("exit_code"):
            self._check(node.value)
        self.generic_visit(node)

    def visit_Assign(self, node: ast.Assign) -> None:
        if any(_names_a_code(target) for target in node.targets):
            self._check(node.value)
        self.generic_visit(node)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        if _names_a_code(node.target):
            self._check(node.value)
        self.generic_visit(node)

    def visit_Compare(self, node: ast.Compare) -> None:
        sides = [node.left, *node.comparators]
        equality = all(isinstance(op, _EQUALITY) for op in node.ops)
        if equality and any(_names_a_code(side) for side in sides):
            for side in sides:
                self._check(side)
        self.generic_visit(node)

    def visit_Return(self, node: ast.Return) -> None:
        if self._in_exit_code_function:
            self._check(node.value)
        self.generic_visit(node)

    def visit_Dict(self, node: ast.Dict) -> None:
        for key, value in zip(node.keys, node.values, strict=True):
            named = isinstance(key, ast.Constant) and str(key.value).endswith(
                "exit_code"
            )
            if self._in_exit_code_function or named:
                self._check(value)
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        if _exit_call_name(node) is not None:
            for argument in node.args:
                self._check(argument)
        self.generic_visit(node)

    def _check(self, node: ast.AST | None) -> None:
        if _is_int(node):
            assert isinstance(node, ast.Constant)
            self.found.append(node.lineno)
        elif isinstance(node, ast.IfExp):  # `8 if regressed else 0`
            self._check(node.body)
            self._check(node.orelse)
        elif isinstance(node, ast.BoolOp):  # `failed and 1 or 0`
            for value in node.values:
                self._check(value)
        elif isinstance(node, ast.Call):  # `int(exc.code or 1)`, `max(code, 1)`
            for argument in node.args:
                self._check(argument)


def _literals(source: str, exiting: frozenset[str] | None = None) -> list[int]:
    """Lines of ``source`` with exit-code literals; ``exiting`` as for
    `_ExitCodeLiterals` (default: the functions ``source`` itself exits with)."""
    if exiting is None:
        exiting = frozenset(_exiting_functions(source))
    visitor = _ExitCodeLiterals(exiting)
    visitor.visit(ast.parse(source))
    return visitor.found


def test_no_exit_code_literal_outside_the_table() -> None:
    scanned = [*PACKAGE.rglob("*.py"), *CLI.rglob("*.py"), *PLUGIN.rglob("*.py")]
    sources = {
        path: path.read_text(encoding="utf-8")
        for path in sorted(scanned)
        if path != TABLE and path not in _NOT_AKIT
    }
    # A function one module exits with may live in another (`report_manifest`).
    exiting = frozenset(
        name for source in sources.values() for name in _exiting_functions(source)
    )
    offenders = [
        f"{path.relative_to(PACKAGE.parent)}:{line}"
        for path, source in sources.items()
        for line in _literals(source, exiting)
    ]
    assert offenders == []


@pytest.mark.parametrize(
    "source",
    [
        "Stop(status='paused', reason='x', exit_code=10)",
        "class E:\n    exit_code = 2\n",
        "if code == 0:\n    code = 1\n",
        "def exit_code_for(s):\n    return {'passed': 0}[s]\n",
        "def exit_code_for(s):\n    return 130\n",
        "sys.exit(7)",
        "sys.exit(1 if failed or regressed else 0)",
        "raise SystemExit(2)",
        "code = 2 if bad else 0",
        "code = bad and 2 or 0",
        "def exit_code(self):\n    return 8 if self.regressed else 0\n",
        "def exit_code_for(s):\n    return ExitCode.FAILED if s else 0\n",
        "os._exit(1)",
        "error = None if summary['exit_code'] == 0 else reason",
        "summary['exit_code'] = 8",
        "row = {'status': 'x', 'exit_code': 7}",
        "sys.exit(int(failed or 1))",
        # A function the module exits with returns exit codes, whatever its name.
        "def report(x):\n    return 2\n\nsys.exit(report(1))\n",
        "def report(x):\n    return 1 if x else ExitCode.OK\n\nctx.exit(report(1))\n",
        "def load():\n    try:\n        pass\n    except SystemExit as exc:\n"
        "        return int(exc.code or 1)\n\nraise SystemExit(load())\n",
    ],
)
def test_the_scan_finds_exit_code_literals(source: str) -> None:
    assert _literals(source)


def test_a_character_code_compared_by_order_is_not_an_exit_code() -> None:
    assert _literals("unsafe = code < 0x20 or 0x7F <= code <= 0x9F") == []


def test_the_table_is_public() -> None:
    assert artemiskit.ExitCode is ExitCode
    assert "ExitCode" in artemiskit.__all__


def test_the_table_holds_the_spec_codes_and_every_stop_status() -> None:
    codes = {
        value
        for name, value in vars(ExitCode).items()
        if name.isupper() and isinstance(value, int)
    }
    assert codes == SPEC_CODES
    assert set(STOP_EXIT_CODES.values()) <= SPEC_CODES
    assert STOP_EXIT_CODES["paused"] == ExitCode.PAUSED
    assert STOP_EXIT_CODES["cancelled"] == ExitCode.CANCELLED


@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("BudgetExhaustedError", 5),
        ("DeadlineExceededError", 6),
        ("PolicyDeniedError", 4),
        ("SessionCancelledError", 130),
    ],
)
def test_never_raised_error_classes_are_deprecated(name: str, code: int) -> None:
    assert name not in artemiskit.__all__
    with pytest.warns(DeprecationWarning, match=f"artemiskit.{name} is deprecated"):
        error_class = getattr(artemiskit, name)
    assert issubclass(error_class, artemiskit.ArtemisError)
    assert error_class("stopped").exit_code == code


def test_unknown_attributes_still_raise_attribute_error() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(AttributeError, match="no_such_name"):
            artemiskit.no_such_name  # noqa: B018
