import os

os.environ.setdefault("MPLBACKEND", "Agg")

import pytest

HEAVY = {
    # the committed Two by Two certificate (a DRAT proof of 419k lemmas) re-verified in full; `make results`
    # checks the same file
    "test_cli_puzzles.py::test_committed_files_check_and_draw[two-by-two]",
    "test_two_by_two.py::test_committed_answer_is_accepted_and_certified",
    "test_certify.py::test_committed_certificate_is_accepted_by_dratify[two-by-two]",
    "test_check_every_field.py::test_every_false_mutation_is_caught[two-by-two]",
    # That's My Line: the unlimited optimum and its certificates re-derived, the real board's game proof
    "test_check_every_field.py::test_every_false_mutation_is_caught[thats-my-line-unlimited]",
    "test_thats_my_line_solitaire.py::test_committed_results_replay_and_check[unlimited-50-split1]",
    "test_certify_thats_my_line.py::test_the_unlimited_proof_is_re_derived_identically_and_checks_natively",
    "test_proof_check.py::test_the_committed_proof_of_the_real_board_is_valid",
    # long searches: the English central game's 18 moves, the default reverse position by SAT and twice by
    # the results job, the kernel's stall, the first-of-three filter on the real board, Ctrl-C mid-search
    "test_jump.py::test_english_central_game_needs_exactly_18_moves",
    "test_jump_sat.py::test_default_position_optimum_four_as_the_kernel",
    "test_results_reproducible.py::test_jump_results_twice_are_identical",
    "test_jump.py::test_kernel_run_ends_when_it_stalls_with_the_proven_bound",
    "test_jump.py::test_first_of_three_allows_every_stone_that_starts_a_finish[power-of-two]",
    "test_bad_input.py::test_ctrl_c_in_jump_reverse_returns_the_best_answer_so_far",
    "test_writes.py::test_ctrl_c_on_solve_out_force_keeps_the_certified_file",
    "test_web_load.py::test_sigterm_stops_the_server_while_it_works",
    # the biggest cross-checks of the compiled referees and players against the plain ones (the smaller
    # games' and the standard variants' stay in `make test`)
    "test_rules_conformance.py::test_fast_generator_matches_plain_rules[david-goliath[sling=True]]",
    "test_rules_conformance.py::test_fast_generator_matches_plain_rules[netzwerk]",
    "test_rules_conformance.py::test_fast_generator_matches_plain_rules[tower-of-power]",
    "test_rules_tower_of_power.py::test_perft_from_the_start[3-182677450]",
    "test_rules_perft.py::test_deeper_counts_by_both_referees[power-of-two/corners]",
    "test_players.py::test_alphabeta_scores_what_plain_minimax_scores[david-goliath]",
    "test_players.py::test_alphabeta_scores_what_plain_minimax_scores[power-of-two]",
    "test_players.py::test_thats_my_line_compiled_endgame_plays_what_the_plain_one_plays",
    "test_players.py::test_thats_my_line_compiled_endgame_stops_when_told_and_proves_the_reply_to_a_first_move",
}
"""Tests of half a minute to three minutes each on 2 cores: `make test` (and CI) leaves them out to
stay within ten minutes, `make test-heavy` runs them (about 5 minutes on 2 idle cores)."""


def pytest_collection_modifyitems(config, items):
    found = set()
    for item in items:
        key = item.nodeid.split("/", 1)[-1]
        if key in HEAVY:
            item.add_marker(pytest.mark.heavy)
            item.add_marker(pytest.mark.slow)
            found.add(key)
    whole = all(not arg.endswith(".py") and "::" not in arg for arg in config.args)  # the suite, not a file
    if whole and not config.getoption("keyword") and found != HEAVY:
        raise pytest.UsageError(f"tests/conftest.py HEAVY names tests that do not exist: {sorted(HEAVY - found)}")
