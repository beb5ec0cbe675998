"""A .env file fills in the settings the environment leaves unset; an exported variable wins over it."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
READ = "from django.conf import settings; print(settings.READ_REQUIRES_LOGIN, settings.TRUSTED_PROXY_COUNT)"


def settings_with(env_file: Path, **exported: str) -> str:
    env = {key: value for key, value in os.environ.items()
           if key not in {"READ_REQUIRES_LOGIN", "TRUSTED_PROXY_COUNT", "DJANGO_SETTINGS_MODULE"}}
    env.update(ENV_FILE=str(env_file), DJANGO_SETTINGS_MODULE="config.settings", **exported)
    result = subprocess.run([sys.executable, "-c", READ], cwd=ROOT, env=env, capture_output=True, text=True,
                            check=True)
    return result.stdout.strip()


def test_the_env_file_is_read(tmp_path):
    env_file = tmp_path / ".env"
    env_file.write_text("# a comment\nREAD_REQUIRES_LOGIN=true\nTRUSTED_PROXY_COUNT=1\n")
    assert settings_with(env_file) == "True 1"


def test_an_exported_variable_wins_over_the_file(tmp_path):
    env_file = tmp_path / ".env"
    env_file.write_text("READ_REQUIRES_LOGIN=true\nTRUSTED_PROXY_COUNT=1\n")
    assert settings_with(env_file, TRUSTED_PROXY_COUNT="2") == "True 2"


def test_no_file_keeps_the_defaults(tmp_path):
    assert settings_with(tmp_path / "absent.env") == "False 0"
