"""File formats read from outside the site, each through a bounded reader (pure Python, no Django).

`xlsx`: the sheets of an xlsx workbook, read part by part within bounds on bytes, XML elements,
depth and the length of one XML token, so a small hostile upload cannot make the work or the memory
grow (DESIGN.md: every reader of outside data has bounds before the work grows).
"""
