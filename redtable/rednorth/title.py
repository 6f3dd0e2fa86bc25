"""Red North as a title: the one value every consumer reads (see :mod:`redtable.core.title`).

Parts in higher layers are named by dotted path, so importing this module imports nothing
but :mod:`redtable.core.title`.
"""

from __future__ import annotations

from ..core.title import Title

TITLE = Title(
    name="red-north",
    game="redtable.rednorth.game:RedNorth",
    players=(2, 4),
    display={"en": "Red North", "uk": "Red North", "pl": "Red North"},
    codec="redtable.envs.actions:red_north_actions",
    encoder="redtable.envs.observations:RED_NORTH",
    observer="redtable.envs.fast_rednorth:RedNorthObserver",
    env_renderer="redtable.envs.render:render_red_north",
    openspiel="redtable.envs.openspiel.games:RED_NORTH",
    gym_id="redtable/RedNorth-v0",
    evaluator="redtable.bots.evaluation:RedNorthEvaluator",
    learned="redtable.bots.learned_value:RED_NORTH",
    terminal="redtable.play.render_rednorth:RedNorthRenderer",
    web_module="rn",
    rules_page="redtable.web.rules_data:red_north_rules",
    cards_page="redtable.web.routes:red_north_cards",
    final_hands="redtable.web.routes:red_north_final",
    running_score="redtable.web.running:red_north_score",
    analysis="redtable.sim.analysis_rednorth:RedNorthAnalysis",
    bot_defaults={
        "heuristic": {"samples": 8, "budget": 40, "opp_weight": 1.0},
        "ismcts": {"c": 0.7, "playout": "random", "cutoff": 8},
        "expert": {"c": 0.7, "reuse": 1, "leaf": "playout", "turns": 8, "mast": 0.5},
        "policy": {"games": 60, "teacher": "expert:30it", "epochs": 20, "rl_games": 1200, "eval_games": 200},
    },
    review_facts="redtable.review.consequences:red_north_facts",
    # the review's calibration (bench/calibrate_review.py report): players -> round -> (slope, intercept)
    review_calibration={2: {1: (0.05, -0.167), 2: (0.05, -0.043), 3: (0.54, 0.164)}},
)
