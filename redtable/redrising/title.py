"""Red Rising as a title: the one value every consumer reads (see :mod:`redtable.core.title`).

Parts in higher layers are named by dotted path, so importing this module imports nothing
but :mod:`redtable.core.title`.
"""

from __future__ import annotations

from ..core.title import Title

TITLE = Title(
    name="red-rising",
    game="redtable.redrising.game:RedRising",
    players=(2, 6),
    display={"en": "Red Rising", "uk": "Червоний світанок", "pl": "Red Rising"},
    codec="redtable.envs.actions:red_rising_actions",
    encoder="redtable.envs.observations:RED_RISING",
    observer="redtable.envs.fast_redrising:RedRisingObserver",
    env_renderer="redtable.envs.render:render_red_rising",
    openspiel="redtable.envs.openspiel.games:RED_RISING",
    gym_id="redtable/RedRising-v0",
    evaluator="redtable.bots.evaluation:RedRisingEvaluator",
    learned="redtable.bots.learned_value:RED_RISING",
    terminal="redtable.play.render_redrising:RedRisingRenderer",
    web_module="rr",
    rules_page="redtable.web.rules_data:red_rising_rules",
    cards_page="redtable.web.routes:red_rising_cards",
    final_hands="redtable.web.routes:red_rising_final",
    running_score="redtable.web.running:red_rising",
    score_events=("points", "end_of_game_ability"),
    analysis="redtable.sim.analysis_redrising:RedRisingAnalysis",
    bot_defaults={
        # determinizations, positions looked at per option, opponent weight
        "heuristic": {"samples": 2, "budget": 60, "opp_weight": 0.0},
        # exploration constant, playout, cutoff (decisions of a greedy/cutoff playout)
        "ismcts": {"c": 0.7, "playout": "random", "cutoff": 12},
        # exploration, tree reuse, leaf evaluation, turn starts before the model, MAST share
        "expert": {"c": 0.7, "reuse": 1, "leaf": "learned", "turns": 8, "mast": 0.0},
        "policy": {"games": 16, "teacher": "expert:30it", "epochs": 20, "rl_games": 480, "eval_games": 100},
    },
    review_facts="redtable.review.consequences:red_rising_facts",
    # the review's calibration (bench/calibrate_review.py report): players -> round -> (slope, intercept)
    review_calibration={2: {None: (1.077, -0.005)}},
)
