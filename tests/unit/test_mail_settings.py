"""Mail settings from the environment: EMAIL_URL, EMAIL_HOST…, or the console in development."""

from config.settings import _email_settings


def test_an_smtp_url_gives_host_port_credentials_and_starttls(monkeypatch):
    monkeypatch.setenv("EMAIL_URL", "smtp://alerts%40example.org:s3cr%3At@smtp.example.org:587")
    settings = _email_settings()
    assert settings["EMAIL_BACKEND"] == "django.core.mail.backends.smtp.EmailBackend"
    assert (settings["EMAIL_HOST"], settings["EMAIL_PORT"]) == ("smtp.example.org", 587)
    assert (settings["EMAIL_HOST_USER"], settings["EMAIL_HOST_PASSWORD"]) == ("alerts@example.org", "s3cr:t")
    assert settings["EMAIL_USE_TLS"] is True and settings["EMAIL_USE_SSL"] is False


def test_smtps_is_implicit_tls_on_465(monkeypatch):
    monkeypatch.setenv("EMAIL_URL", "smtps://user:pw@mail.example.org")
    settings = _email_settings()
    assert settings["EMAIL_PORT"] == 465 and settings["EMAIL_USE_SSL"] is True and settings["EMAIL_USE_TLS"] is False


def test_a_bad_url_is_refused_at_start_up(monkeypatch):
    import pytest
    from django.core.exceptions import ImproperlyConfigured

    monkeypatch.setenv("EMAIL_URL", "http://mail.example.org")
    with pytest.raises(ImproperlyConfigured):
        _email_settings()


def test_email_host_one_by_one_and_the_console_without_settings(monkeypatch):
    monkeypatch.delenv("EMAIL_URL", raising=False)
    monkeypatch.setenv("EMAIL_HOST", "localhost")
    monkeypatch.setenv("EMAIL_PORT", "25")
    monkeypatch.setenv("EMAIL_USE_TLS", "false")
    settings = _email_settings()
    assert (settings["EMAIL_HOST"], settings["EMAIL_PORT"], settings["EMAIL_USE_TLS"]) == ("localhost", 25, False)
    monkeypatch.delenv("EMAIL_HOST")
    assert _email_settings() == {"EMAIL_BACKEND": "django.core.mail.backends.console.EmailBackend"}
