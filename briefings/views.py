def _todo(request, **kw): raise NotImplementedError
negotiation_html = negotiation_pdf = negotiation_docx = jurisdiction_html = jurisdiction_pdf = jurisdiction_docx = _todo
