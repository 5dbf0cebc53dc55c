"""File formats read from and written for outside the site (pure Python; no models, no views).

- `protocol_file`: a match's protocol as CSV or xlsx (docs/protocol-file.md), read into the
  engine's `DealEntry` values and written from a replayed match.
- `fixture_file`: a competition's fixture list as CSV.
- `xlsx`: the sheets of an xlsx workbook, read part by part within bounds on bytes, XML elements,
  depth and the length of one XML token, so a small hostile upload cannot make the work or the
  memory grow (docs/operations.md, "Security": every reader of outside data has bounds before the work grows).
"""
