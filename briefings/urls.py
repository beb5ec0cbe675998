from django.urls import path

from briefings import views

app_name = "briefings"

urlpatterns = [
    path("negotiations/<slug:slug>/briefing", views.negotiation_html, name="negotiation"),
    path("negotiations/<slug:slug>/briefing.pdf", views.negotiation_pdf, name="negotiation_pdf"),
    path("negotiations/<slug:slug>/briefing.docx", views.negotiation_docx, name="negotiation_docx"),
    path("jurisdictions/<str:code>/briefing", views.jurisdiction_html, name="jurisdiction"),
    path("jurisdictions/<str:code>/briefing.pdf", views.jurisdiction_pdf, name="jurisdiction_pdf"),
    path("jurisdictions/<str:code>/briefing.docx", views.jurisdiction_docx, name="jurisdiction_docx"),
]
