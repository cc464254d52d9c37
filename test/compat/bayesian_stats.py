"""GrowthBook gbstats' Bayesian effect test for Sluice's Bayesian results test: reads cases (JSON on stdin), prints
what gbstats' EffectBayesianABTest computes for each (JSON).

Input:  [{"a": {"proportion": bool, "n", "sum", "sumSquares"}, "b": {...}, "relative": bool,
          "prior": {"mean", "variance", "proper"}, "priorScale": "relative"|"absolute", "alpha", "inverse": bool}]
Output: [{"expected", "sd", "ci": [lo, hi], "chanceToWin", "risk": [baseline, treatment], "error"}]
"""
import json
import sys

from gbstats.bayesian.tests import EffectBayesianABTest, EffectBayesianConfig, GaussianPrior
from gbstats.models.statistics import ProportionStatistic, SampleMeanStatistic


def stat(s):
    if s["proportion"]:
        return ProportionStatistic(n=s["n"], sum=s["sum"])
    return SampleMeanStatistic(n=s["n"], sum=s["sum"], sum_squares=s["sumSquares"])


def main():
    out = []
    for c in json.load(sys.stdin):
        p = c["prior"]
        config = EffectBayesianConfig(
            difference_type="relative" if c["relative"] else "absolute",
            inverse=c["inverse"],
            alpha=c["alpha"],
            prior_type=c["priorScale"],
            prior_effect=GaussianPrior(mean=p["mean"], variance=p["variance"], proper=p["proper"]),
        )
        r = EffectBayesianABTest(stat(c["a"]), stat(c["b"]), config).compute_result()
        out.append(
            {
                "expected": r.expected,
                "sd": r.uplift.stddev,
                "ci": list(r.ci),
                "chanceToWin": r.chance_to_win,
                "risk": list(r.risk),
                "error": r.error_message,
            }
        )
    json.dump(out, sys.stdout)


main()
