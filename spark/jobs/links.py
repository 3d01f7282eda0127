"""spark-submit's entry point for relurl_spark.links: spark-submit spark/jobs/links.py ...

The package is found beside this file (or installed, or shipped with
--py-files); the job ships it to the executors itself.
"""

import os
import sys

try:
    import relurl_spark  # noqa: F401
except ImportError:
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from relurl_spark.links import main

sys.exit(main())
