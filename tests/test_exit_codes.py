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


#: Calls whose arguments are exit codes: `sys.exit`, `ctx.exit`, `SystemExit(...)`.
_EXITS = {"exit", "SystemExit"}
#: Comparisons that test an exit code (``code < 0x20`` compares a character code).
_EQUALITY = (ast.Eq, ast.NotEq)


def _is_int(node: ast.AST | None) -> bool:
    return (
        isinstance(node, ast.Constant)
        and isinstance(node.value, int)
        and not isinstance(node.value, bool)
    )


def _names_a_code(node: ast.AST) -> bool:
    name = None
    if isinstance(node, ast.Name):
        name = node.id
    elif isinstance(node, ast.Attribute):
        name = node.attr
    return name is not None and (name == "code" or name.endswith("exit_code"))


class _ExitCodeLiterals(ast.NodeVisitor):
    """Finds integer literals used as exit codes."""

    def __init__(self) -> None:
        self.found: list[int] = []
        self._in_exit_code_function = False

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        outer = self._in_exit_code_function
        self._in_exit_code_function = "exit_code" in node.name
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
        if self._in_exit_code_function:
            for value in node.values:
                self._check(value)
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        function = node.func
        name = None
        if isinstance(function, ast.Attribute):
            name = function.attr
        elif isinstance(function, ast.Name):
            name = function.id
        if name in _EXITS:
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


def _literals(source: str) -> list[int]:
    visitor = _ExitCodeLiterals()
    visitor.visit(ast.parse(source))
    return visitor.found


def test_no_exit_code_literal_outside_the_table() -> None:
    offenders = []
    scanned = [*PACKAGE.rglob("*.py"), *CLI.rglob("*.py"), *PLUGIN.rglob("*.py")]
    for path in sorted(scanned):
        if path == TABLE:
            continue
        for line in _literals(path.read_text(encoding="utf-8")):
            offenders.append(f"{path.relative_to(PACKAGE.parent)}:{line}")
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
