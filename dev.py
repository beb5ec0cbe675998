#!/usr/bin/env python3
"""Set up and run the project with nothing but Python 3.11+.

    python3 dev.py serve   # venv, install, migrate, load the Canada Job Grant data, serve on :8000
    python3 dev.py test    # venv, install, run the whole test suite (extra args go to pytest)
    python3 dev.py setup   # venv and install only
    python3 dev.py messages  # refresh the French catalogue after adding strings (needs GNU gettext),
                             # then translate the new msgids in locale/fr/LC_MESSAGES/django.po

DATABASE_URL selects PostgreSQL (default: a SQLite file in the project).
"""

import hashlib
import os
import signal
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PYTHON = BIN / ("python.exe" if os.name == "nt" else "python")
REQUIREMENTS = ROOT / "requirements.txt"
STAMP = VENV / ".requirements.sha256"


def run(*args: str, **kwargs) -> None:
    print("+", " ".join(args), flush=True)
    subprocess.run(args, cwd=ROOT, check=True, **kwargs)


def ensure_environment() -> None:
    """Create the virtual environment and install the pinned requirements when they changed."""
    if sys.version_info < (3, 11):
        sys.exit("Python 3.11 or newer is needed.")
    if not PYTHON.exists():
        print(f"Creating the virtual environment in {VENV}", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    wanted = hashlib.sha256(REQUIREMENTS.read_bytes()).hexdigest()
    if not STAMP.exists() or STAMP.read_text().strip() != wanted:
        run(str(PYTHON), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "-r", str(REQUIREMENTS))
        STAMP.write_text(wanted)
    # The French catalogue, compiled in pure Python (polib): no GNU gettext needed.
    run(str(PYTHON), "-m", "config.catalogue", "compile")


# What WeasyPrint (the briefing's PDF) needs from the system: Pango, HarfBuzz and a font.
PDF_PACKAGES = ("libpango-1.0-0", "libpangoft2-1.0-0", "libharfbuzz-subset0", "fonts-dejavu-core")


def ensure_system_packages() -> None:
    """Install the PDF libraries with apt where they are missing and we may (root on Debian); else say so.

    Without them everything works but the briefing's PDF, which answers 503 with this advice."""
    if os.name == "nt" or not Path("/usr/bin/dpkg").exists():
        return
    missing = [name for name in PDF_PACKAGES
               if subprocess.run(["dpkg", "-s", name], capture_output=True).returncode != 0]
    if not missing:
        return
    if os.geteuid() == 0:
        run("apt-get", "update", "-qq")
        run("apt-get", "install", "-y", "-qq", *missing, env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"})
    else:
        print(f"Note: briefing PDFs need the Debian packages {' '.join(missing)} "
              f"(sudo apt-get install {' '.join(missing)}); until then /…/briefing.pdf answers 503.", flush=True)


def manage(*args: str) -> None:
    run(str(PYTHON), "manage.py", *args)


def serve(extra: list[str]) -> None:
    ensure_environment()
    ensure_system_packages()
    manage("migrate", "--no-input")
    manage("load_cjg")
    address = extra[0] if extra else "127.0.0.1:8000"
    print(f"Serving on http://{address}/ (Ctrl-C stops it)", flush=True)
    # The server (and its autoreloader's child) run in a process group of their own, stopped as a
    # whole when this script is stopped by Ctrl-C or by its PID (SIGTERM): the port is freed.
    server = subprocess.Popen([str(PYTHON), "manage.py", "runserver", address], cwd=ROOT, start_new_session=True)

    def stop(signum, frame):
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGTERM)
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(server.pid, signal.SIGKILL)
        sys.exit(0)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    sys.exit(server.wait())


def test(extra: list[str]) -> None:
    ensure_environment()
    ensure_system_packages()
    result = subprocess.run([str(PYTHON), "-m", "pytest", *extra], cwd=ROOT)
    sys.exit(result.returncode)


def setup(extra: list[str]) -> None:
    ensure_environment()
    ensure_system_packages()


def messages(extra: list[str]) -> None:
    ensure_environment()
    run(str(PYTHON), "-m", "config.catalogue", "update")


def main() -> None:
    commands = {"serve": serve, "test": test, "setup": setup, "messages": messages}
    if len(sys.argv) < 2 or sys.argv[1] not in commands:
        sys.exit(__doc__)
    try:
        commands[sys.argv[1]](sys.argv[2:])
    except subprocess.CalledProcessError as error:
        sys.exit(error.returncode)
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
