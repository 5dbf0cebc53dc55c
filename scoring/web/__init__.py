"""The web's plumbing around the views: the client's address behind the proxy, path converters
bounded to their columns, the middleware (language, keeping pages with validators and
Cache-Control, refusals as 409 pages) and the login throttle. Only the views and the URLs import
it; the site's own address, which documents and mails need too, is scoring.site_address."""
