"""The web's plumbing around the views: the client's address behind the proxy, the site's own
address, path converters bounded to their columns, the middleware (language, keeping pages with
validators and Cache-Control, refusals as 409 pages) and the login throttle."""
