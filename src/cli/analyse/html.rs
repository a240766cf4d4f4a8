//! A study as one self-contained HTML page: the report as text and its charts drawn inline,
//! nothing fetched, so the file can be mailed or archived as it is.

use super::super::output::escape_markup;
use super::charts::Chart;

/// The page of a study of `rules`: its report text and charts.
pub(super) fn page(rules: &str, report: &str, charts: &[Chart]) -> String {
    let mut out = format!(
        r#"<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>outflank analysis: {rules}</title>
<style>
body {{ font-family: sans-serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem; color: #222; }}
pre {{ background: #f6f6f6; padding: 1rem; overflow-x: auto; }}
figure {{ margin: 2rem 0; }}
figcaption {{ font-weight: bold; margin-bottom: 0.5rem; }}
svg {{ max-width: 100%; height: auto; }}
</style>
</head>
<body>
<h1>Analysis of {rules}</h1>
<pre class="report">{report}</pre>
"#,
        rules = escape_markup(rules),
        report = escape_markup(report)
    );
    for c in charts {
        out.push_str(&format!(
            "<figure id=\"{}\">\n<figcaption>{}</figcaption>\n{}</figure>\n",
            c.name,
            escape_markup(&c.title),
            c.svg
        ));
    }
    out.push_str("</body>\n</html>\n");
    out
}
