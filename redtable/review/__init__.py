"""The expert's review of a finished game (:mod:`.engine`) and its words (:mod:`.words`)."""

from .engine import (
    BLUNDER,
    DEFAULT_BUDGET,
    MISTAKE,
    Budget,
    DecisionReview,
    Review,
    ReviewCancelled,
    decision_steps,
    mark_of,
    review_decision,
    review_record,
)
from .hint import hint

__all__ = [
    "BLUNDER",
    "DEFAULT_BUDGET",
    "MISTAKE",
    "Budget",
    "DecisionReview",
    "Review",
    "ReviewCancelled",
    "decision_steps",
    "hint",
    "mark_of",
    "review_decision",
    "review_record",
]
