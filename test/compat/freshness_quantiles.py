"""numpy's nearest-rank quantiles (method="inverted_cdf") of the freshness canary's hours, for Sluice's health answer.

Input:  {"hours": [[hour, [ms, ...]], ...]}   (-1: a canary not queryable in time)
Output: [{"hour": hour, "canaries", "p50", "p95", "notQueryable"}, ...]   (p50 and p95 null without a seen canary)
"""
import json
import sys

import numpy as np


def main():
    out = []
    for hour, times in json.load(sys.stdin)["hours"]:
        seen = [t for t in times if t >= 0]
        p50, p95 = (None, None) if not seen else np.percentile(seen, [50, 95], method="inverted_cdf").tolist()
        out.append({"hour": hour, "canaries": len(times), "p50": p50, "p95": p95, "notQueryable": len(times) - len(seen)})
    json.dump(out, sys.stdout)


main()
