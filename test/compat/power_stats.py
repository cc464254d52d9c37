"""statsmodels' power of the two-sample z-test (NormalIndPower) and numpy's least squares for Sluice's power tests:
reads cases (JSON on stdin), prints for each the power at the keys given and the keys of the first arm that reach the
power asked for, and the power law fitted to cumulative keys (JSON).

Input:  {"cases": [{"effectSize": d (the change over the per-key standard deviation), "ratio": n2/n1, "alpha",
                    "nobs1": n1, "power": target}],
         "growth": [[days, keys], ...]}                       (either may be left out)
Output: {"cases": [{"power": at nobs1, "nobs1": solved for target}], "growth": {"a", "b"}}  (keys = a * days^b)
"""
import json
import sys

import numpy as np
from statsmodels.stats.power import NormalIndPower


def main():
    req = json.load(sys.stdin)
    analysis = NormalIndPower()
    out = {"cases": []}
    for c in req.get("cases", []):
        d, ratio, alpha = c["effectSize"], c["ratio"], c["alpha"]
        out["cases"].append(
            {
                "power": float(analysis.power(effect_size=d, nobs1=c["nobs1"], alpha=alpha, ratio=ratio)),
                "nobs1": float(
                    analysis.solve_power(effect_size=d, nobs1=None, alpha=alpha, power=c["power"], ratio=ratio)
                ),
            }
        )
    if req.get("growth"):
        points = np.asarray(req["growth"], dtype=float)
        b, log_a = np.polyfit(np.log(points[:, 0]), np.log(points[:, 1]), 1)
        out["growth"] = {"a": float(np.exp(log_a)), "b": float(b)}
    json.dump(out, sys.stdout)


main()
