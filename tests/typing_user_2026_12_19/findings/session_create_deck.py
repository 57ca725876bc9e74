"""Session.create's docstring: "*players* to *position* as for new_game". new_game takes
``deck: str | Sequence[str | Card]``; Session.create is annotated ``str | Sequence[str]``
(and a list of Card objects fails at run time with a bare TypeError from json).
"""

import cardcore
from cardcore.session import Session

deck = list(cardcore.standard_52())
game = cardcore.new_game("spit", 2, deck=deck, seed=2)
session = Session.create("spit", 2, now=0.0, deck=deck, seed=2)
