"""gbstats' quantile statistics for Sluice's quantile metrics test: reads per-key values per treatment (JSON on stdin),
picks each treatment's quantile and bounds from them as ClickHouse and GrowthBook do (quantileExact: the value of
rank floor(level * n) + 1; the bounds of the largest n* of GrowthBook's grid below n, walking down while they are
equal), and prints what gbstats 0.8.0 computes from those: QuantileStatistic (per key) or QuantileClusteredStatistic
(events clustered in keys), the two-sided t-test, the Bayesian effect test (flat prior) and a one-sided test (JSON).

Input:  {"alpha", "baseline", "metrics": [{"id", "nu", "of": "events" | "keys", "worseIf": null | "increase",
          "values": {"<treatment>": [[v, ...] per key]}}]}
Output: {"<id>": {"arms": {"<treatment>": {"n", "nStar", "estimate", "lower", "upper", "variance", "zero"}},
         "<treatment>": {"fixed": {"absolute": R, "relative": R}, "bayesian": {"absolute": B, "relative": B},
                         "oneSided": {...}}}}
"""
import json
import sys

import numpy as np
from scipy.stats import norm
from gbstats.bayesian.tests import EffectBayesianABTest, EffectBayesianConfig, GaussianPrior
from gbstats.frequentist.tests import FrequentistConfig, OneSidedTreatmentGreaterTTest, TwoSidedTTest
from gbstats.models.statistics import QuantileClusteredStatistic, QuantileStatistic

N_STAR = [100 * 2**i for i in range(20)]


def exact(sorted_values, level):
    n = len(sorted_values)
    return float(sorted_values[min(n - 1, int(np.floor(level * n)))])


def statistic(per_key, nu, of):
    if of == "keys":
        values = np.sort(np.asarray([np.mean(k) for k in per_key if len(k) > 0], dtype=float))
    else:
        values = np.sort(np.asarray([v for k in per_key for v in k], dtype=float))
    n = len(values)
    q = exact(values, nu)
    z = norm.ppf(0.975)
    below = len([s for s in N_STAR if s < n])
    n_star, lower, upper = 0, 0.0, 0.0
    for j in range(max(0, below - 1), -1, -1):
        se = np.sqrt(nu * (1 - nu) / N_STAR[j])
        lo = exact(values, max(nu - z * se, 1e-8))
        hi = exact(values, min(nu + z * se, 0.99999999))
        if lo != hi:
            n_star, lower, upper = N_STAR[j], lo, hi
            break
    common = dict(n=n, n_star=n_star, nu=nu, quantile_hat=q, quantile_lower=lower, quantile_upper=upper)
    if of == "keys":
        return QuantileStatistic(**common)
    keyed = [k for k in per_key if len(k) > 0]
    s = np.asarray([sum(1 for v in k if v <= q) for k in keyed], dtype=float)
    d = np.asarray([len(k) for k in keyed], dtype=float)
    return QuantileClusteredStatistic(
        **common,
        main_sum=float(s.sum()),
        main_sum_squares=float((s * s).sum()),
        denominator_sum=float(d.sum()),
        denominator_sum_squares=float((d * d).sum()),
        main_denominator_sum_product=float((s * d).sum()),
        n_clusters=len(keyed),
    )


def frequentist(test):
    r = test.compute_result()
    ci = [float(c) if np.isfinite(c) else None for c in r.ci]
    return {"estimate": r.expected, "ci": ci, "pValue": r.p_value, "error": r.error_message}


def bayesian(a, b, kind, alpha, inverse):
    config = EffectBayesianConfig(
        difference_type=kind, alpha=alpha, inverse=inverse, prior_effect=GaussianPrior(mean=0, variance=1, proper=False)
    )
    r = EffectBayesianABTest(a, b, config).compute_result()
    return {
        "expected": r.expected,
        "ci": [float(c) for c in r.ci],
        "chanceToWin": r.chance_to_win,
        "risk": [float(x) for x in r.risk],
        "error": r.error_message,
    }


def main():
    req = json.load(sys.stdin)
    alpha, baseline = req["alpha"], req["baseline"]
    out = {}
    for m in req["metrics"]:
        stats = {t: statistic(v, m["nu"], m["of"]) for t, v in m["values"].items()}
        per = {
            "arms": {
                t: {
                    "n": s.n,
                    "nStar": s.n_star,
                    "estimate": s.quantile_hat,
                    "lower": s.quantile_lower,
                    "upper": s.quantile_upper,
                    "variance": s.variance,
                    "zero": bool(s._has_zero_variance),
                }
                for t, s in stats.items()
            }
        }
        a = stats[baseline]
        for t, b in stats.items():
            if t == baseline:
                continue
            kinds = ("absolute", "relative")
            per[t] = {
                "fixed": {k: frequentist(TwoSidedTTest(a, b, FrequentistConfig(alpha=alpha, difference_type=k))) for k in kinds},
                "bayesian": {k: bayesian(a, b, k, alpha, m.get("inverse", False)) for k in kinds},
            }
            if m.get("worseIf") == "increase":
                per[t]["oneSided"] = {
                    k: frequentist(OneSidedTreatmentGreaterTTest(a, b, FrequentistConfig(alpha=alpha, difference_type=k)))
                    for k in kinds
                }
        out[m["id"]] = per
    json.dump(out, sys.stdout)


main()
