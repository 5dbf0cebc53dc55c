"""Example data, never needed by the site itself: the demo season (`demo.py`, behind `manage.py
demo`), the legal-deal generator both use (`generate.py`), and the federation-scale data set
(`federation.py`, `manage.py demo --scale federation`) for benchmarks and the load test. Every
row is written through the services' public functions, so the data is what secretaries would
have entered."""
