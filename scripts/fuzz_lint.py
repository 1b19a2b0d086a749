#!/usr/bin/env python3
"""Mutation fuzzing of `clientgen lint`, `generate` and `diff`: 400 mutated copies of our specs and
the public corpus (lines deleted, repeated, cut, re-indented, swapped, YAML
anchors, aliases, tags, tabs, quotes and broken $refs appended). Every run
must end with exit 0 or 1 (2 for diff's bad input), never a crash; a
mutant that lints without errors is also generated and diffed against its seed. Usage: fuzz_lint.py [SEED]"""
import random, subprocess, os, sys, glob
random.seed(int(sys.argv[1]) if len(sys.argv)>1 else 1)
corpus=os.environ.get('CORPUS','corpus')
seeds=[open(f,'rb').read() for f in glob.glob('specs/*.yaml')+[p for p in glob.glob(corpus+'/*.yaml') if os.path.getsize(p) < 1_000_000]]
crashes=0
generated=0
for i in range(400):
    seed=random.choice(seeds)
    data=bytearray(seed)
    lines=data.split(b'\n')
    for _ in range(random.randint(1,6)):
        op=random.randint(0,6)
        if op==0 and lines: del lines[random.randrange(len(lines))]
        elif op==1 and lines: lines.insert(random.randrange(len(lines)), random.choice(lines))
        elif op==2 and lines:
            j=random.randrange(len(lines)); lines[j]=lines[j][:random.randint(0,len(lines[j]))]
        elif op==3 and lines:
            j=random.randrange(len(lines)); lines[j]=b' '*random.randint(0,6)+lines[j].lstrip()
        elif op==4 and lines:
            j=random.randrange(len(lines)); lines[j]+=random.choice([b' &a',b' *a',b' {',b' [',b'"',b"'",b': x',b' !!int',b' <<: *a',b' $ref: "#/x"',b'\t'])
        elif op==5 and lines:
            j=random.randrange(len(lines)); lines[j]=lines[j].replace(b'$ref: ', b'$ref: "#/components/schemas/', 1)
        elif op==6 and lines:
            j=random.randrange(len(lines)); k=random.randrange(len(lines)); lines[j],lines[k]=lines[k],lines[j]
    path='/tmp/fuzzcase.yaml'
    open(path,'wb').write(b'\n'.join(lines))
    r=subprocess.run(['.build/release/clientgen','lint',path],capture_output=True,timeout=20)
    runs=[('lint',r)]
    if r.returncode==0:
        # A spec that loads must also generate and diff against its seed without a crash.
        out='/tmp/fuzzcase-out'
        runs.append(('generate',subprocess.run(['.build/release/clientgen','generate',path,'--output',out,'--module','Fuzz'],capture_output=True,timeout=60)))
        generated+=1
        seed_path='/tmp/fuzzseed.yaml'
        open(seed_path,'wb').write(seed)
        runs.append(('diff',subprocess.run(['.build/release/clientgen','diff',seed_path,path,'--format','json'],capture_output=True,timeout=60)))
    for name,result in runs:
        if result.returncode not in (0,1,2):
            crashes+=1
            os.rename(path,f'/tmp/crash-{name}-{sys.argv[1] if len(sys.argv)>1 else 1}-{i}.yaml')
            print('CRASH',name,result.returncode,result.stderr[-300:])
            break
print('cases 400 generated',generated,'crashes',crashes)
sys.exit(1 if crashes else 0)
