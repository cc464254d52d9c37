"""Independent statistics for Sluice's sequential, CUPED, guardrail and correction tests: reads per-key values
(and pre-exposure values) per metric and treatment (JSON on stdin), prints what GrowthBook's gbstats and statsmodels
compute from them (JSON).

Input:  {"alpha": 0.05, "baseline": "off", "tunings": [5000, ...],
         "metrics": [{"id", "proportion": bool, "worseIf": null | "increase" | "decrease",
                      "values": {"<treatment>": [x...]}, "pre": {"<treatment>": [pre...]}}],
         "pValues": [...], "quantile": {"values": [...], "q": 0.99},
         "priors": [{"mean", "variance", "proper"}, ...]}   (a metric may say "inverse": true: lower is better)
Output: {"metrics": {"<id>": {"<treatment>": {
           "fixed":      {"absolute": R, "relative": R},
           "sequential": {"<tuning>": {"absolute": R, "relative": R}},
           "cuped":      {"theta", "fixed": {...}, "sequential": {"<tuning>": {...}}},
           "oneSided":   {"absolute": R, "relative": R}        (when worseIf is given)
           "bayesian":   [{"plain": {"absolute": B, "relative": B}, "cuped": {...}}, ...]   (one per prior)
         }}},
         "holm": [...], "bh": [...], "quantile": {"rank", "invertedCdf"}}
with R = {"estimate", "ci", "pValue"} and B = {"expected", "sd", "ci", "chanceToWin", "risk", "error"}
(EffectBayesianABTest, the prior given on the relative lift).
"""
import json
import sys

import numpy as np
from scipy.stats import t as t_dist
from gbstats.bayesian.tests import EffectBayesianABTest, EffectBayesianConfig, GaussianPrior
from gbstats.frequentist.tests import (
    FrequentistConfig,
    OneSidedTreatmentGreaterTTest,
    OneSidedTreatmentLesserTTest,
    SequentialConfig,
    SequentialTwoSidedTTest,
    TwoSidedTTest,
)
from gbstats.models.statistics import (
    ProportionStatistic,
    RegressionAdjustedStatistic,
    SampleMeanStatistic,
    compute_theta,
)
from statsmodels.stats.multitest import multipletests


def result(test):
    r = test.compute_result()
    # An open side of a one-sided interval is written as null (JSON has no infinity).
    ci = [float(c) if np.isfinite(c) else None for c in r.ci]
    return {"estimate": r.expected, "ci": ci, "pValue": r.p_value, "error": r.error_message}


def both(make):
    return {kind: result(make(kind)) for kind in ("absolute", "relative")}


def stat(values, proportion):
    x = np.asarray(values, dtype=float)
    if proportion:
        return ProportionStatistic(n=len(x), sum=float(x.sum()))
    return SampleMeanStatistic(n=len(x), sum=float(x.sum()), sum_squares=float((x * x).sum()))


def adjusted(values, pre, proportion):
    x = np.asarray(values, dtype=float)
    y = np.asarray(pre, dtype=float)
    return RegressionAdjustedStatistic(
        n=len(x),
        post_statistic=stat(x, proportion),
        pre_statistic=stat(y, proportion),
        post_pre_sum_of_products=float((x * y).sum()),
        theta=0,
    )


def bayesian(a, b, alpha, prior, inverse):
    def one(kind):
        config = EffectBayesianConfig(
            difference_type=kind,
            inverse=inverse,
            alpha=alpha,
            prior_type="relative",
            prior_effect=GaussianPrior(mean=prior["mean"], variance=prior["variance"], proper=prior["proper"]),
        )
        r = EffectBayesianABTest(a, b, config).compute_result()
        return {
            "expected": r.expected,
            "sd": r.uplift.stddev,
            "ci": [float(c) for c in r.ci],
            "chanceToWin": r.chance_to_win,
            "risk": [float(x) for x in r.risk],
            "error": r.error_message,
        }

    return {kind: one(kind) for kind in ("absolute", "relative")}


def tests(a, b, alpha, tunings):
    out = {
        "fixed": both(lambda kind: TwoSidedTTest(a, b, FrequentistConfig(alpha=alpha, difference_type=kind))),
        "sequential": {},
    }
    for tuning in tunings:
        out["sequential"][str(tuning)] = both(
            lambda kind: SequentialTwoSidedTTest(
                a, b, SequentialConfig(alpha=alpha, difference_type=kind, sequential_tuning_parameter=tuning)
            )
        )
    return out


def main():
    req = json.load(sys.stdin)
    alpha, baseline, tunings = req["alpha"], req["baseline"], req["tunings"]
    out = {"metrics": {}}
    for m in req["metrics"]:
        proportion = m["proportion"]
        per = {}
        for t, values in m["values"].items():
            if t == baseline:
                continue
            a, b = stat(m["values"][baseline], proportion), stat(values, proportion)
            per[t] = tests(a, b, alpha, tunings)
            inverse = bool(m.get("inverse"))
            per[t]["bayesian"] = [{"plain": bayesian(a, b, alpha, p, inverse)} for p in req.get("priors", [])]
            if m.get("worseIf"):
                # Worse if it increases: the treatment greater than the baseline is the alternative.
                one = OneSidedTreatmentGreaterTTest if m["worseIf"] == "increase" else OneSidedTreatmentLesserTTest
                per[t]["oneSided"] = both(lambda kind: one(a, b, FrequentistConfig(alpha=alpha, difference_type=kind)))
                if one is OneSidedTreatmentLesserTTest:
                    # gbstats 0.8.0 gives this test's upper bound as estimate - width, below its own estimate; the
                    # bound of (-inf, upper] that holds 1 - alpha is estimate + width (its own dof and variance).
                    for kind in ("absolute", "relative"):
                        test = one(a, b, FrequentistConfig(alpha=alpha, difference_type=kind))
                        width = t_dist.ppf(1 - alpha, test.dof) * np.sqrt(test.variance)
                        per[t]["oneSided"][kind]["ci"][1] = float(test.point_estimate + width)
            if m.get("pre"):
                ra = adjusted(m["values"][baseline], m["pre"][baseline], proportion)
                rb = adjusted(values, m["pre"][t], proportion)
                theta = compute_theta(ra, rb)
                ra.theta = theta
                rb.theta = theta
                per[t]["cuped"] = {"theta": theta, **tests(ra, rb, alpha, tunings)}
                for i, p in enumerate(req.get("priors", [])):
                    per[t]["bayesian"][i]["cuped"] = bayesian(ra, rb, alpha, p, inverse)
        out["metrics"][m["id"]] = per
    if req.get("pValues"):
        out["holm"] = [float(p) for p in multipletests(req["pValues"], alpha=alpha, method="holm")[1]]
        out["bh"] = [float(p) for p in multipletests(req["pValues"], alpha=alpha, method="fdr_bh")[1]]
    if req.get("quantile"):
        # ClickHouse's quantileExact: the value of rank floor(q*n) + 1 in ascending order; and numpy's inverted_cdf.
        x, q = np.sort(np.asarray(req["quantile"]["values"], dtype=float)), req["quantile"]["q"]
        out["quantile"] = {
            "rank": float(x[min(len(x) - 1, int(np.floor(q * len(x))))]),
            "invertedCdf": float(np.quantile(x, q, method="inverted_cdf")),
        }
    json.dump(out, sys.stdout)


main()
