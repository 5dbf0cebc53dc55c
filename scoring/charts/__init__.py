"""Charts drawn on the server (`svg`): the same markup on the pages, in print and in the PDFs."""
