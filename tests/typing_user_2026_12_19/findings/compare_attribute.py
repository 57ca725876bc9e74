"""house-rule-study.rst: "the names above are its attributes too (``cardcore.compare.Estimate``)".

mypy sees ``cardcore.compare`` as the function re-exported by the package, so the documented
attribute spelling is an ``attr-defined`` error (``from cardcore.compare import Estimate`` works).
The docs now tell typed code to import the names (house-rule-study.rst); the errors are expected.
"""

import cardcore


def first_action_estimate(
    result: cardcore.Comparison,
) -> "cardcore.compare.Estimate":  # expect-error
    estimate: cardcore.compare.Estimate = result.diff["actions"]  # expect-error
    return estimate
