"""The bracket's boxes cut a long name (or note) to its room, never a short one."""

from cups.selectors import SCORE_END, TEXT_GAP, TEXT_X, BoxLine, fit, text_width


def test_a_short_name_is_whole_and_a_long_one_is_cut_to_its_room():
    assert fit("Black Bull", 150, 13) == "Black Bull"
    cut = fit("Heckmondwike and District Working Men's Club B", 150, 13)
    assert cut.endswith("…") and "Heckmondwike".startswith(cut[:12])
    assert text_width(cut, 13) <= 150


def test_the_name_leaves_room_for_its_score():
    line = BoxLine(name="W" * 40, score="w/o", won=True)
    room = SCORE_END - TEXT_X - TEXT_GAP - text_width("w/o", 13)
    assert line.label.endswith("…") and text_width(line.label, 13) <= room
