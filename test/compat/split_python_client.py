"""Drives Sluice's Split Admin API v2 with Split's own Python client (splitapiclient 3.5.9).

Run by test/e2e/split-python-client.e2e.test.ts with SPLIT_BASE_URL (…/internal/api/v2),
SPLIT_API_KEY, WS_ID, ENV_ID and TT_NAME. Prints one line per step; exits non-zero on the first
failure, with the traceback.
"""
import os
import sys

from splitapiclient.main import get_client
from splitapiclient.util.exceptions import HTTPResponseError

BASE = os.environ["SPLIT_BASE_URL"]
WS_ID, ENV_ID, TT_NAME = os.environ["WS_ID"], os.environ["ENV_ID"], os.environ["TT_NAME"]
if os.environ.get("SPLIT_HARNESS") == "1":
    client = get_client({"harness_mode": True, "harness_token": os.environ["SPLIT_API_KEY"], "base_url": BASE})
else:
    client = get_client({"apikey": os.environ["SPLIT_API_KEY"], "base_url": BASE})


def check(name, cond, detail=""):
    if not cond:
        raise AssertionError("%s: %s" % (name, detail))
    print("ok", name)


ws = next(w for w in client.workspaces.list() if w.id == WS_ID)
check("workspaces.find", client.workspaces.find(ws.name).id == WS_ID)
env = next(e for e in client.environments.list(WS_ID) if e.id == ENV_ID)
tt = client.traffic_types.find(TT_NAME, WS_ID)
check("traffic_types.find", tt is not None and tt.name == TT_NAME)

# 60 segments: the client pages segments 50 at a time.
names = ["py_seg_%02d" % i for i in range(60)]
for n in names:
    ws.add_segment({"name": n, "description": "made by splitapiclient"}, TT_NAME)
listed = [s.name for s in client.segments.list(WS_ID)]
check("segments.list pages past 50", all(n in listed for n in names), len(listed))

seg = client.segments.find("py_seg_00", WS_ID)
seg.add_to_environment(ENV_ID)
sd = client.segment_definitions.find("py_seg_00", ENV_ID, WS_ID)
check("segment_definitions.find", sd is not None)

keys = ["user-%05d" % i for i in range(1234)]
sd.import_keys_from_json(True, {"keys": keys[:10], "comment": "first"})
sd.import_keys_from_json(False, {"keys": keys, "comment": "all"})
check("get_key_count", sd.get_key_count() == len(keys), sd.get_key_count())
got = sd.get_keys()  # pages of 100 while count > offset + limit
check("get_keys pages through all keys", sorted(got) == keys, len(got))

sd.import_keys_from_json("True", {"keys": ["a", "b", "c"], "comment": "replace", "title": "t"})
check("uploadKeys?replace=True replaces", sorted(sd.get_keys()) == ["a", "b", "c"])

try:
    seg.remove_from_environment(ENV_ID)
    raise AssertionError("deactivate with keys must fail")
except HTTPResponseError as e:
    check("deactivate refused while keys remain", "409" in str(e), str(e))
sd.remove_keys({"keys": ["a", "b", "c"], "comment": "empty it"})
check("removeKeys", sd.get_key_count() == 0)
seg.remove_from_environment(ENV_ID)
check("deactivated", "py_seg_00" not in [s.name for s in client.segment_definitions.list(ENV_ID, WS_ID)])

for n in names:
    ws.delete_segment(n)
check("segments deleted", not any(s.name in names for s in client.segments.list(WS_ID)))

saved = client.identities.save({"key": "id-1", "trafficTypeId": tt.id, "environmentId": ENV_ID, "values": {"plan": "pro", "seats": 3}})
check("identities.save returns strings", saved.values == {"plan": "pro", "seats": "3"}, saved.values)
result = client.identities.save_all([
    {"key": "id-2", "trafficTypeId": tt.id, "environmentId": ENV_ID, "values": {"age": 41}},
    {"key": "id-3", "trafficTypeId": tt.id, "environmentId": ENV_ID, "values": {"9bad": "x"}},
])
check("save_all stores the good", [i.key for i in result.successful] == ["id-2"])
check("save_all lists the bad in failed", len(result.failed) == 1 and result.failed[0]["status"] == 400, result.failed)
patched = client.identities.patch({"key": "id-1", "trafficTypeId": tt.id, "environmentId": ENV_ID, "values": {"seats": 4}})
check("identities.patch merges", patched.values == {"plan": "pro", "seats": "4"}, patched.values)
updated = client.identities.update({"key": "id-1", "trafficTypeId": tt.id, "environmentId": ENV_ID, "values": {"tier": "gold"}})
check("identities.update merges", updated.values == {"plan": "pro", "seats": "4", "tier": "gold"}, updated.values)
client.identities.delete(tt.id, ENV_ID, "id-1")
print("flow complete")
sys.stdout.flush()
