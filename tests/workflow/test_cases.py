"""Dataset rows become cases (SPEC section 19): ids, lines, refusals."""

from __future__ import annotations

import pytest

from artemiskit.workflow._cases import (
    CaseError,
    cases_from_csv,
    cases_from_jsonl,
    number_cases,
)


def test_jsonl_ids_default_to_zero_padded_positions_and_keep_lines() -> None:
    cases = cases_from_jsonl('{"a": 1}\n\n{"id": "x.1", "a": 2}\n{"a": 3}\n')
    assert [(c.id, c.line) for c in cases] == [("0001", 1), ("x.1", 3), ("0003", 4)]
    assert cases[0].values == {"a": 1}


def test_csv_values_are_strings_and_the_header_is_line_one() -> None:
    cases = cases_from_csv('id,n\nt1,3\nt2,"multi\nline"\nt3,4\n')
    assert [(c.id, c.line) for c in cases] == [("t1", 2), ("t2", 3), ("t3", 5)]
    assert cases[0].values == {"id": "t1", "n": "3"}


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ('{"a": 1}\n{"a": \n', 2, "invalid JSON"),
        ('{"id": "a"}\n{"id": "a"}\n', 2, "repeats the case on line 1"),
        ('{"id": "-bad"}\n', 1, "case id"),
        ('{"id": 7}\n', 1, "case id"),
        ("[1]\n", 1, "mapping"),
    ],
)
def test_bad_jsonl_rows_name_their_line(text: str, line: int, words: str) -> None:
    with pytest.raises(CaseError, match=words) as caught:
        cases_from_jsonl(text)
    assert caught.value.line == line


def test_a_ragged_csv_row_names_its_file_line() -> None:
    with pytest.raises(CaseError, match="has 1 fields; the header has 2") as caught:
        cases_from_csv("id,n\nt1,3\nt2\n")
    assert caught.value.line == 3


def test_too_many_cases_are_refused() -> None:
    rows: list[tuple[int, object]] = [(n, {}) for n in range(1, 100_002)]
    with pytest.raises(CaseError, match="at most 100000 cases"):
        number_cases(rows)


def test_errors_never_quote_case_values() -> None:
    with pytest.raises(CaseError) as caught:
        cases_from_jsonl('{"secret": "SENTINEL-VALUE"\n')
    assert "SENTINEL" not in str(caught.value)
