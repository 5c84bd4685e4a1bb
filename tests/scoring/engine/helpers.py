"""Short notation for test results: ``deal("2S N 8")`` is 2S by North taking 8 tricks."""

from scoring.engine import DealResult, PassedOut, Played, Sheet, make_result

PASS = PassedOut()


def deal(text: str) -> Played:
    contract, declarer, tricks = text.rsplit(maxsplit=2)
    result = make_result(contract=contract, declarer=declarer, tricks=int(tricks))
    assert isinstance(result, Played)
    return result


def deals(*texts: str) -> list[DealResult]:
    return [PASS if text == "pass" else deal(text) for text in texts]


def row_points(sheet: Sheet) -> list[tuple[int, int]]:
    return [(row.ns, row.ew) for row in sheet.rows]


def row_partscores(sheet: Sheet) -> list[tuple[int, int]]:
    return [(row.partscore_ns, row.partscore_ew) for row in sheet.rows]


def row_items(sheet: Sheet, index: int) -> list[tuple[str, str, int]]:
    return [(item.kind.value, item.side.value, item.points) for item in sheet.rows[index].items]
