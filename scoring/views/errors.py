"""The page for a refused form post (CSRF check): Django's own is a technical English page. It
happens at the table when a page was opened before its user logged in again elsewhere (a new
login renews the token every open page carries), so it says plainly what to do."""

from __future__ import annotations

from django.shortcuts import render


def csrf_failure(request, reason: str = ""):
    return render(request, "403_csrf.html", {"reason": reason}, status=403)
