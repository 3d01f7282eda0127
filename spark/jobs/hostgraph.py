"""spark-submit's entry point for relurl_spark.hostgraph (ship the package with --py-files)."""

import sys

from relurl_spark.hostgraph import main

sys.exit(main())
