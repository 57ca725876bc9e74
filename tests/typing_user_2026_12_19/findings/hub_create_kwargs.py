"""Hub.create takes ``**kwargs: Any`` ("arguments as for Session.create"): a misspelled or
mistyped keyword passes mypy and fails at run time (expected errors on the marked lines).
"""

from cardcore.session import Hub, MemoryStore

hub = Hub(MemoryStore())
hub.create("golf", 2, now=0.0, sed=7)  # expect-error
hub.create("golf", 2, now=0.0, seed="7")  # expect-error
