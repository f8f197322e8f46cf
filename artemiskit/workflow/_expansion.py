"""Expanding a workflow per case and checking every expansion (SPEC section 19).

A *site* is a string (or an ``environment.files`` key) with a ``{{ name }}`` in a
section that allows substitution: ``conversation``, ``environment.files``,
``environment.state``, ``outcomes`` and a fault's ``content``/``fixture``. A case's
expansion is the workflow with every site filled from the case; everything else is
shared, not copied.

Every expansion is checked against the contract, but cheaply: the problems an
expansion can have depend only on its site values, and a value that cannot break
its site's rule (plain text of a safe length where any text goes, a path that
follows the path rules) is replaced by a token. Cases with the same tokens and
values share one check, so 10,000 rows that differ only in their text cost one
check, while a value that could break a rule is checked with its case.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Final

from artemiskit._common._paths import normalize_path, path_problem
from artemiskit._common._substitution import (
    MissingName,
    Placeholder,
    TemplateError,
    fixed_placeholder_paths,
    has_placeholder,
    parse_template,
    render,
)
from artemiskit._common._yaml import KeyPath, ParsedYaml, format_path
from artemiskit.workflow._case_keys import CASE_KEYS

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Mapping, Sequence

    from artemiskit._errors import Problem
    from artemiskit.workflow._cases import Case

__all__ = [
    "MAX_CASE_PROBLEMS",
    "Site",
    "case_problems",
    "expand",
    "fill_sites",
    "fixed_problems",
    "template_sites",
]

#: How many problems of single cases are listed before the rest are counted.
MAX_CASE_PROBLEMS: Final = 100

_TEXT: Final = "text"
_PATH: Final = "path"
_KEY: Final = "key"
_EXACT: Final = "exact"
#: A value at a site that cannot break the site's rule.
_SAFE: Final = object()
#: Text this long or shorter is within every string limit of the contract.
_SAFE_TEXT: Final = 65536


class Site:
    """One place of the workflow that a case fills.

    Args:
        path: Where the string (or key) sits in the workflow.
        parts: The template, split by `parse_template`.
        is_key: The site is a mapping key (an ``environment.files`` name).
        kind: ``text`` (any text up to ``limit`` characters goes), ``path`` (a
            path-rules string), ``key`` (a file name) or ``exact``.
        limit: The longest safe text, for ``text`` sites.
        siblings: For ``key`` sites, the other file names of the mapping, and
            whether this is the mapping's only key site.
    """

    __slots__ = ("alone", "is_key", "kind", "limit", "parts", "path", "siblings")

    def __init__(
        self,
        path: KeyPath,
        parts: tuple[str | Placeholder, ...],
        *,
        is_key: bool = False,
        kind: str = _EXACT,
        limit: int = _SAFE_TEXT,
        siblings: frozenset[str] = frozenset(),
        alone: bool = True,
    ) -> None:
        self.path = path
        self.parts = parts
        self.is_key = is_key
        self.kind = kind
        self.limit = limit
        self.siblings = siblings
        self.alone = alone

    def __repr__(self) -> str:
        return f"Site(path={format_path(self.path)!r}, kind={self.kind!r})"

    @property
    def names(self) -> tuple[str, ...]:
        """The dotted names the site uses, in order."""
        return tuple(p.name for p in self.parts if isinstance(p, Placeholder))


def _text_limit(path: KeyPath) -> int | None:
    """The safe length of text at ``path`` when any text goes there, else None."""
    match path:
        case ("conversation", "system") | ("conversation", "turns", int(), "user"):
            return _SAFE_TEXT
        case ("environment", "files", str()):
            return _SAFE_TEXT
        case ("environment", "state", "documents", str(), "content"):
            return _SAFE_TEXT
        case ("environment", "state", "documents", str(), "title"):
            return 1024
        case ("faults", int(), "content"):
            return 1024
        case ("outcomes", int(), "judge", "rubric"):
            return _SAFE_TEXT
        case ("outcomes", int(), "contains" | "not_contains", *rest) if len(rest) < 2:
            return _SAFE_TEXT
    return None


def _walk(value: Any, path: KeyPath) -> Iterator[tuple[KeyPath, Any, bool]]:
    """Every string value and key below ``path`` as (path, string, is_key)."""
    stack: list[tuple[KeyPath, Any]] = [(path, value)]
    while stack:
        here, item = stack.pop()
        if isinstance(item, str):
            yield here, item, False
        elif isinstance(item, dict):
            for key, child in reversed(item.items()):
                stack.append(((*here, key), child))
        elif isinstance(item, list):
            stack.extend(reversed([((*here, i), v) for i, v in enumerate(item)]))


def _allowed(data: Mapping[str, Any]) -> Iterator[tuple[KeyPath, Any]]:
    """The parts of a workflow whose strings a case may fill."""
    if "conversation" in data:
        yield ("conversation",), data["conversation"]
    environment = data.get("environment")
    if isinstance(environment, dict):
        for key in ("files", "state"):
            if key in environment:
                yield ("environment", key), environment[key]
    if "outcomes" in data:
        yield ("outcomes",), data["outcomes"]
    faults = data.get("faults")
    if isinstance(faults, list):
        for index, fault in enumerate(faults):
            if isinstance(fault, dict):
                for key in ("content", "fixture"):
                    if key in fault:
                        yield ("faults", index, key), fault[key]


def fixed_problems(doc: ParsedYaml) -> list[Problem]:
    """A problem for every ``{{`` in target, tools, ``allow``, policy or budgets."""
    message = (
        "no '{{ name }}' here: target, tools, allow, policy and budgets are the same"
        " for every case (write '\\{{' for a literal '{{')"
    )
    return [
        doc.problem(message, path, at_key=isinstance(path[-1], str))
        for path in fixed_placeholder_paths(doc.data)
    ]


def template_sites(doc: ParsedYaml) -> tuple[list[Site], list[Problem]]:
    """The sites of a workflow, and a problem for each malformed placeholder.

    Args:
        doc: The parsed workflow.

    Returns:
        The sites in document order, and the problems of placeholders that are
        not a plain dotted name or are not closed.
    """
    sites: list[Site] = []
    problems: list[Problem] = []
    files = (doc.data.get("environment") or {}).get("files")
    file_keys = files if isinstance(files, dict) else {}
    templated_keys = [k for k in file_keys if has_placeholder(k)]
    for base, value in _allowed(doc.data):
        for path, text, _ in _walk(value, base):
            site = _site(doc, path, text, False, problems)
            if site is not None:
                sites.append(site)
    for key in templated_keys:
        path = ("environment", "files", key)
        siblings = frozenset(
            normalize_path(k) for k in file_keys if k != key and not has_placeholder(k)
        )
        site = _site(doc, path, key, True, problems)
        if site is not None:
            site.siblings = siblings
            site.alone = len(templated_keys) == 1
            sites.append(site)
    return sites, problems


def _site(
    doc: ParsedYaml, path: KeyPath, text: str, is_key: bool, problems: list[Problem]
) -> Site | None:
    if not has_placeholder(text):
        return None
    try:
        parts = parse_template(text)
    except TemplateError as exc:
        problems.append(doc.problem(str(exc), path, at_key=is_key))
        return None
    if not any(isinstance(p, Placeholder) for p in parts):
        return None
    if is_key:
        return Site(path, parts, is_key=True, kind=_KEY)
    limit = _text_limit(path)
    if limit is not None:
        return Site(path, parts, kind=_TEXT, limit=limit)
    if path[0] == "outcomes" and len(path) == 3 and path[2] == "file":
        return Site(path, parts, kind=_PATH)
    return Site(path, parts)


def _token(site: Site, value: object) -> object:
    """`_SAFE` when ``value`` cannot break its site's rule, else the value itself."""
    if isinstance(value, str):
        return _SAFE if _safe_text(site, value) else ("s", value)
    try:
        return ("j", json.dumps(value, sort_keys=True, separators=(",", ":")))
    except (TypeError, ValueError):  # pragma: no cover - JSON-shaped case values
        return ("r", repr(value))


def _safe_text(site: Site, value: str) -> bool:
    if site.kind == _TEXT:
        return 0 < len(value) <= site.limit and (value.isascii() or _encodable(value))
    if site.kind == _PATH:
        return path_problem(value) is None
    if site.kind == _KEY:
        return (
            site.alone
            and path_problem(value) is None
            and normalize_path(value) == value
            and value not in site.siblings
        )
    return False


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def fill_sites(
    sites: Sequence[Site], values: Mapping[str, object]
) -> tuple[list[object], list[tuple[Site, str]]]:
    """Every site filled from one case, and the (site, name) pairs it lacks."""
    filled: list[object] = []
    missing: list[tuple[Site, str]] = []
    for site in sites:
        try:
            filled.append(render(site.parts, values, text=site.is_key))
        except MissingName:
            filled.append(None)
            for part in site.parts:
                if isinstance(part, Placeholder):
                    try:
                        render((part,), values)
                    except MissingName:
                        missing.append((site, part.name))
    return filled, missing


def expand(
    data: Mapping[str, Any], sites: Sequence[Site], filled: Sequence[object]
) -> dict[str, Any]:
    """The workflow with every site replaced by its value; the rest is shared.

    Args:
        data: The workflow as parsed.
        sites: Its sites (`template_sites`).
        filled: One value per site (file-name keys as text).

    Returns:
        A new top-level mapping without ``cases``/``dataset``: the containers on
        the way to a site are copied, everything else is the original objects.

    Raises:
        ValueError: Two file names became the same name.
    """
    root = {k: v for k, v in data.items() if k not in CASE_KEYS}
    copied: dict[KeyPath, Any] = {(): root}

    def container(path: KeyPath) -> Any:
        found = copied.get(path)
        if found is None:
            parent = container(path[:-1])
            child = parent[path[-1]]
            found = dict(child) if isinstance(child, dict) else list(child)
            parent[path[-1]] = found
            copied[path] = found
        return found

    renames: list[tuple[Site, str]] = []
    for site, value in zip(sites, filled, strict=True):
        if site.is_key:
            renames.append((site, str(value)))
        else:
            container(site.path[:-1])[site.path[-1]] = value
    for site, name in renames:
        parent = container(site.path[:-1])
        old = site.path[-1]
        if name != old and name in parent:
            raise ValueError(old)
        items = [((name if k == old else k), v) for k, v in parent.items()]
        parent.clear()
        parent.update(items)
    return root


def _with_message(problem: Problem, message: str) -> Problem:
    import attrs  # loaded already: a problem exists

    return attrs.evolve(problem, message=message)


def _with_path(problem: Problem, path: str) -> Problem:
    import attrs  # loaded already: a problem exists

    return attrs.evolve(problem, path=path)


def _under(problem_path: str, site_path: str) -> bool:
    if not problem_path.startswith(site_path):
        return False
    rest = problem_path[len(site_path) :]
    return not rest or rest[0] in ".["


class _Checked:
    """One check's problems: those at a site and those elsewhere."""

    __slots__ = ("at_sites", "elsewhere")

    def __init__(self) -> None:
        self.at_sites: list[Problem] = []
        self.elsewhere: list[Problem] = []


def _check(
    doc: ParsedYaml,
    sites: Sequence[Site],
    filled: Sequence[object],
    check: Callable[[ParsedYaml], list[Problem]],
) -> _Checked:
    checked = _Checked()
    site_paths = [format_path(s.path) for s in sites]
    try:
        data = expand(doc.data, sites, filled)
    except ValueError:
        key_site = next(s for s in sites if s.is_key)
        message = "two file names are the same once this case fills them"
        checked.at_sites.append(doc.problem(message, key_site.path, at_key=True))
        return checked
    expanded = ParsedYaml(
        data=data,
        source=doc.source,
        positions=doc.positions,
        key_positions=doc.key_positions,
    )
    renamed = [
        (format_path((*s.path[:-1], str(v))), format_path(s.path))
        for s, v in zip(sites, filled, strict=True)
        if s.is_key
    ]
    for problem in check(expanded):
        path = problem.path or "$"
        for new, old in renamed:
            if _under(path, new):
                path = old + path[len(new) :]
                problem = _with_path(problem, path)
                break
        if any(_under(path, site) for site in site_paths):
            checked.at_sites.append(problem)
        else:
            checked.elsewhere.append(problem)
    return checked


def _case_problem(
    message: str, path: str, case: Case, source: str, case_word: bool = True
) -> Problem:
    from artemiskit._errors import Problem

    text = f"case {case.id}: {message}" if case_word else message
    return Problem(
        message=text, path=path, source=source, line=case.line, column=case.column
    )


def _neutral(sites: Sequence[Site], filled: Sequence[object]) -> list[object]:
    """Site values that break no rule of their site (exact sites keep theirs)."""
    taken = {str(v) for s, v in zip(sites, filled, strict=True) if s.is_key}
    neutral: list[object] = []
    for index, (site, value) in enumerate(zip(sites, filled, strict=True)):
        if site.kind in (_TEXT, _PATH):
            neutral.append("x")
        elif site.kind == _KEY:
            name = f"case-file-{index}"
            while name in site.siblings or name in taken:
                name += "-"
            neutral.append(name)
        else:
            neutral.append(value)
    return neutral


def _general_problems(
    doc: ParsedYaml,
    sites: Sequence[Site],
    filled: Sequence[object],
    check: Callable[[ParsedYaml], list[Problem]],
) -> tuple[set[tuple[str, str]], list[Problem]]:
    """The problems the workflow has whatever its cases hold.

    The workflow is checked once with neutral site values: what is wrong then
    (an unknown key beside a placeholder, a broken outcome elsewhere) is the
    workflow's problem, reported once at its position, not once per case.
    """
    checked = _check(doc, sites, _neutral(sites, filled), check)
    exact = [format_path(s.path) for s in sites if s.kind == _EXACT]
    general = [
        p
        for p in checked.at_sites
        if not any(_under(p.path or "$", path) for path in exact)
    ]
    general += checked.elsewhere
    general.sort(key=lambda p: (p.line or 0, p.column or 0))
    return {(p.path, p.message) for p in general}, general


def case_problems(
    doc: ParsedYaml,
    sites: Sequence[Site],
    cases: Sequence[Case],
    cases_source: str,
    check: Callable[[ParsedYaml], list[Problem]],
) -> list[Problem]:
    """Expand the workflow for every case and check each expansion.

    Args:
        doc: The parsed workflow (with its ``cases``/``dataset`` key).
        sites: Its sites (`template_sites`).
        cases: The cases, in order.
        cases_source: The file the cases are in (the dataset, or the workflow).
        check: The contract's checks of one expanded workflow.

    Returns:
        A problem at the workflow's position for each name no case has and for
        each problem an expansion has away from the sites; a problem at the
        case's line (in ``cases_source``) for each name one case lacks and each
        problem an expansion has at a site, naming the case id and the key path.
        At most `MAX_CASE_PROBLEMS` problems of single cases are listed, then
        one that counts the rest. Never a case value.
    """
    results: dict[tuple[object, ...], _Checked] = {}
    general: set[tuple[str, str]] | None = None
    found: list[Problem] = []
    missing_by_case: list[tuple[Case, list[tuple[Site, str]]]] = []
    misses: dict[str, int] = {}
    at_sites: list[tuple[Case, Problem]] = []
    everywhere: dict[tuple[str, str], int] = {}
    listed_once: set[tuple[str, str]] = set()
    elsewhere: dict[tuple[str, str], tuple[Problem, Case, int]] = {}
    for case in cases:
        filled, missing = fill_sites(sites, case.values)
        if missing:
            missing_by_case.append((case, missing))
            for name in {name for _, name in missing}:
                misses[name] = misses.get(name, 0) + 1
            continue
        if general is None:
            general, listed = _general_problems(doc, sites, filled, check)
            found += listed
        signature = tuple(
            _token(site, value) for site, value in zip(sites, filled, strict=True)
        )
        checked = results.get(signature)
        if checked is None:
            checked = _check(doc, sites, filled, check)
            results[signature] = checked
        for problem in checked.at_sites:
            key = (problem.path, problem.message)
            if key not in general:
                at_sites.append((case, problem))
                everywhere[key] = everywhere.get(key, 0) + 1
        for problem in checked.elsewhere:
            key = (problem.path, problem.message)
            if key in general:
                continue
            first = elsewhere.get(key)
            count = 1 if first is None else first[2] + 1
            elsewhere[key] = (
                (problem, case, count)
                if first is None
                else (
                    first[0],
                    first[1],
                    count,
                )
            )
    nobody = {name for name, count in misses.items() if count == len(cases)}
    reported: set[str] = set()
    for site in sites:
        for name in site.names:
            if name in nobody and name not in reported:
                reported.add(name)
                message = f"no case has a value for '{name}'"
                found.append(doc.problem(message, site.path, at_key=site.is_key))
    checked_cases = len(cases) - len(missing_by_case)
    for problem, case, count in elsewhere.values():
        if count < checked_cases:
            others = count - 1
            note = f" (case {case.id}" + (f" and {others} more" if others else "") + ")"
            problem = _with_message(problem, problem.message + note)
        found.append(problem)
    single: list[Problem] = []
    for case, missing in missing_by_case:
        for site, name in missing:
            if name not in nobody:
                message = f"the case has no value for '{name}'"
                single.append(
                    _case_problem(message, format_path(site.path), case, cases_source)
                )
    # a problem every checked case has is the workflow's: listed once
    shared = {k for k, n in everywhere.items() if n == checked_cases > 1}
    for case, problem in at_sites:
        key = (problem.path, problem.message)
        if key not in shared:
            single.append(
                _case_problem(problem.message, problem.path, case, cases_source)
            )
        elif key not in listed_once:
            listed_once.add(key)
            found.append(_with_message(problem, problem.message + " (every case)"))
    single.sort(key=lambda p: (p.line or 0, p.column or 0))
    if len(single) > MAX_CASE_PROBLEMS:
        from artemiskit._errors import Problem

        rest = len(single) - MAX_CASE_PROBLEMS
        single = single[:MAX_CASE_PROBLEMS]
        single.append(
            Problem(
                message=f"{rest} more problems of single cases are not listed",
                source=cases_source,
            )
        )
    return found + single
