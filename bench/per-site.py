#!/usr/bin/env python3
# The Python side of bench/per-site.mjs: the field's per-site benchmark (the one Scrapy used to
# choose protego: for each website, parse its robots.txt, then check its links) for protego and
# Python's urllib.robotparser, in their own process so neither shares a heap or a clock with Node.
#
#   per-site.py CASES_JSONL ROBOTS_DIR [ROUNDS]
#
# Each line of CASES_JSONL names a file in ROBOTS_DIR and its labelled cases; the cases' URLs are
# the site's links, each checked for its own agent (the labels are per agent). Cases whose agent is
# a list are left out: neither library takes more than one agent. Bodies are cut at 512,000 bytes
# (the labels apply Google's 500 KiB limit first) and decoded as UTF-8 with replacement, the BOM
# dropped, as TextDecoder decodes them on the Node side.
#
# Prints one JSON object: per library its total over all sites (median of ROUNDS rounds, default 5,
# the libraries alternating first), the 50th/95th/99th percentile of a site's time (each site's
# median over the rounds, nearest rank), the checks made and how many agree with the labels. A
# library that cannot be imported has an "error" instead, so the caller can say so, not drop the row.
import json
import os
import platform
import sys
from time import perf_counter_ns

CUT = 512_000


def load(cases_path, robots_dir):
    sites = []
    with open(cases_path, encoding='utf-8') as f:
        for line in f:
            if not line.strip():
                continue
            rec = json.loads(line)
            with open(os.path.join(robots_dir, rec['file']), 'rb') as body:
                text = body.read()[:CUT].decode('utf-8-sig', errors='replace')
            links = [(c['url'], c['agent'], c['allowed']) for c in rec['cases'] if isinstance(c['agent'], str)]
            sites.append((text, links))
    return sites


def protego_site():
    from protego import Protego

    def site(text, links):
        agree = 0
        rp = Protego.parse(text)
        for url, agent, allowed in links:
            try:
                agree += rp.can_fetch(url, agent) == allowed
            except Exception:  # a throw is a miss, as on the Node side
                pass
        return agree
    return site


def urllib_site():
    from urllib.robotparser import RobotFileParser

    def site(text, links):
        agree = 0
        rp = RobotFileParser()
        # As Scrapy's PythonRobotParser feeds it.
        rp.parse(text.splitlines())
        for url, agent, allowed in links:
            try:
                agree += rp.can_fetch(agent, url) == allowed
            except Exception:
                pass
        return agree
    return site


def version_of(dist):
    try:
        from importlib.metadata import version
        return version(dist)
    except Exception:
        return 'unknown version'


def libraries():
    out = []
    try:
        out.append({'name': f"protego {version_of('Protego')}", 'site': protego_site()})
    except Exception as e:
        out.append({'name': 'protego', 'error': f'{type(e).__name__}: {e}'})
    out.append({'name': f'urllib.robotparser (Python {platform.python_version()})', 'site': urllib_site()})
    return out


def nearest_rank(sorted_xs, p):
    k = max(0, -(-len(sorted_xs) * p // 100) - 1)
    return sorted_xs[k]


def median(xs):
    return sorted(xs)[len(xs) // 2]


def main(argv):
    if len(argv) < 3:
        sys.stderr.write('usage: per-site.py CASES_JSONL ROBOTS_DIR [ROUNDS]\n')
        return 2
    sites = load(argv[1], argv[2])
    rounds = int(argv[3]) if len(argv) > 3 else 5
    if rounds < 1:
        sys.stderr.write('per-site.py: ROUNDS must be at least 1\n')
        return 2
    libs = libraries()
    runnable = [lib for lib in libs if 'site' in lib]
    for lib in runnable:
        lib['totals'] = []
        lib['per_site'] = [[] for _ in sites]
    # No warm-up pass: CPython has no JIT to warm, and a pass of protego takes seconds.
    for r in range(rounds):
        for lib in (runnable if r % 2 == 0 else runnable[::-1]):
            site = lib['site']
            total = 0
            agree = 0
            per_site = lib['per_site']
            for i, (text, links) in enumerate(sites):
                t = perf_counter_ns()
                agree += site(text, links)
                ns = perf_counter_ns() - t
                per_site[i].append(ns)
                total += ns
            lib['totals'].append(total)
            lib['agree'] = agree
    result = []
    for lib in libs:
        if 'error' in lib:
            result.append({'name': lib['name'], 'error': lib['error']})
            continue
        site_ns = sorted(median(xs) for xs in lib['per_site'])
        result.append({
            'name': lib['name'],
            'total_ns': median(lib['totals']),
            'p50_ns': nearest_rank(site_ns, 50),
            'p95_ns': nearest_rank(site_ns, 95),
            'p99_ns': nearest_rank(site_ns, 99),
            'checks': sum(len(links) for _, links in sites),
            'agree': lib['agree'],
        })
    json.dump({
        'python': platform.python_version(),
        'executable': sys.executable,
        'rounds': rounds,
        'sites': len(sites),
        'libraries': result,
    }, sys.stdout)
    sys.stdout.write('\n')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
