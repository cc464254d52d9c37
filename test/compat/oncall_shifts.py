"""On-call shifts computed independently of Sluice: dateutil's rrule for the handoffs and the restrictions, zoneinfo
for the wall clock (fold 0: a time skipped in spring takes the offset before the change, one repeated in autumn is
its first occurrence), and a sweep over every boundary for the layering (overrides over layers, later over earlier).

Reads {"schedule": ..., "from": ms, "to": ms} as JSON on stdin (Sluice's schedule definition), writes the shifts
[{"start": ms, "end": ms, "responder": id}] as JSON on stdout. If an "ical" text is given instead, it parses it with the
icalendar package and writes its events as shifts."""
import json
import sys
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

from dateutil.rrule import DAILY, HOURLY, WEEKLY, rrule

DAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]


def ms(dt):
    return int(dt.timestamp() * 1000)


def local_ms(naive, zone):
    return ms(naive.replace(tzinfo=zone, fold=0))


def layer_spans(layer, zone, frm, to):
    start = datetime.strptime(layer["start"], "%Y-%m-%dT%H:%M")
    ms_end = float("inf")
    if "end" in layer:
        ms_end = local_ms(datetime.strptime(layer["end"], "%Y-%m-%dT%H:%M"), zone)
    unit, length = layer["rotation"]["unit"], layer["rotation"]["length"]
    if unit == "hours":
        first_utc = start.replace(tzinfo=zone, fold=0).astimezone(timezone.utc)
        rule = rrule(HOURLY, interval=length, dtstart=first_utc)
        to_ms = lambda d: ms(d)
        until = datetime.fromtimestamp(to / 1000, timezone.utc) + timedelta(hours=length)
    else:
        rule = rrule(DAILY if unit == "days" else WEEKLY, interval=length, dtstart=start)
        to_ms = lambda d: local_ms(d, zone)
        until = datetime.fromtimestamp(to / 1000, timezone.utc).replace(tzinfo=None) + timedelta(
            days=length * (7 if unit == "weeks" else 1) + 2
        )
    handoffs = [to_ms(d) for d in rule.between(rule[0], until, inc=True)]
    responders = layer["responders"]
    turns = []
    for k in range(len(handoffs) - 1):
        s, e = max(handoffs[k], frm), min(handoffs[k + 1], to, ms_end)
        if e > s:
            turns.append((s, e, responders[k % len(responders)]))
    restrictions = layer.get("restrictions")
    if not restrictions:
        return turns
    allowed = []
    day0 = datetime.fromtimestamp(frm / 1000, zone).replace(tzinfo=None, hour=0, minute=0, second=0, microsecond=0) - timedelta(days=2)
    day_end = datetime.fromtimestamp(to / 1000, zone).replace(tzinfo=None) + timedelta(days=2)
    for r in restrictions:
        fh, fm = map(int, r["from"].split(":"))
        th, tm = map(int, r["to"].split(":"))
        days = rrule(DAILY, byweekday=[DAYS.index(d) for d in r["days"]], dtstart=day0, until=day_end)
        for d in days:
            s = d.replace(hour=fh, minute=fm)
            e = d.replace(hour=th, minute=tm)
            if (th, tm) <= (fh, fm):
                e += timedelta(days=1)
            allowed.append((local_ms(s, zone), local_ms(e, zone)))
    out = []
    for s, e, who in turns:
        cuts = sorted({s, e} | {x for a in allowed for x in a if s < x < e})
        for a, b in zip(cuts, cuts[1:]):
            if any(x <= a and b <= y for x, y in allowed):
                out.append((a, b, who))
    return out


def shifts(schedule, frm, to):
    zone = ZoneInfo(schedule["timeZone"])
    sources = [layer_spans(layer, zone, frm, to) for layer in schedule["layers"]]
    for o in schedule.get("overrides", []):
        s = ms(datetime.fromisoformat(o["from"].replace("Z", "+00:00")))
        e = ms(datetime.fromisoformat(o["to"].replace("Z", "+00:00")))
        s, e = max(s, frm), min(e, to)
        if e > s:
            sources.append([(s, e, o["responder"])])
    bounds = sorted({x for src in sources for (s, e, _) in src for x in (s, e)})
    out = []
    for a, b in zip(bounds, bounds[1:]):
        who = None
        for src in reversed(sources):
            hit = [w for (s, e, w) in src if s <= a and b <= e]
            if hit:
                who = hit[0]
                break
        if who is None:
            continue
        if out and out[-1]["end"] == a and out[-1]["responder"] == who:
            out[-1]["end"] = b
        else:
            out.append({"start": a, "end": b, "responder": who})
    return out


def ical_shifts(text):
    from icalendar import Calendar

    cal = Calendar.from_ical(text)
    out = []
    for ev in cal.walk("VEVENT"):
        out.append(
            {
                "start": ms(ev.decoded("DTSTART")),
                "end": ms(ev.decoded("DTEND")),
                "responder": str(ev.get("X-SLUICE-RESPONDER")),
                "summary": str(ev.get("SUMMARY")),
                "uid": str(ev.get("UID")),
            }
        )
    return sorted(out, key=lambda x: x["start"])


if __name__ == "__main__":
    arg = json.load(sys.stdin)
    if "ical" in arg:
        json.dump(ical_shifts(arg["ical"]), sys.stdout)
    else:
        json.dump(shifts(arg["schedule"], arg["from"], arg["to"]), sys.stdout)
