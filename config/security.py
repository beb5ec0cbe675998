"""Response headers that Django's SecurityMiddleware does not set (Django 5.2 has no CSP)."""

from django.conf import settings


class ContentSecurityPolicyMiddleware:
    """Adds the strict Content-Security-Policy to every response that lacks one."""

    def __init__(self, get_response):
        self.get_response = get_response
        self.policy = settings.CONTENT_SECURITY_POLICY

    def __call__(self, request):
        response = self.get_response(request)
        response.headers.setdefault("Content-Security-Policy", self.policy)
        return response
