"""A fake GTP engine for the adapters' tests: `write(path, exchange)` writes a Python script
that expects the commands of `exchange` ((command, response) pairs) in order and answers each
with its response; any other command makes it answer `? expected ...` and exit.
"""
import textwrap


def write(path, exchange):
    with open(path, "w") as f:
        f.write(textwrap.dedent(f"""
            import sys
            exchange = {exchange!r}
            for expected, response in exchange:
                line = sys.stdin.readline().strip()
                if line != expected:
                    print(f"? expected {{expected}}, got {{line}}\\n", flush=True)
                    sys.exit(1)
                print(response + "\\n", flush=True)
        """))
