// Default limits of the checks (docs/checks.md describes each check). An operator overrides any of them with
// PAGEGRADE_THRESHOLDS='{"title_max_chars": 65}' (see config.ts).

export interface CheckThresholds {
  title_min_chars: number;
  title_max_chars: number;
  meta_description_min_chars: number;
  meta_description_max_chars: number;
  url_max_chars: number;
  max_links: number;
  min_words: number;
  min_text_html_ratio_percent: number;
  max_load_time_ms: number;
  max_ttfb_ms: number;
  max_page_bytes: number;
  max_http_requests: number;
  max_dom_elements: number;
  min_hsts_max_age_s: number;
  max_inline_css: number;
  /** The lab checks (docs/lab.md): the pass limits; their band edges are fixed. */
  max_lcp_ms: number;
  max_cls: number;
  max_tbt_ms: number;
  max_fcp_ms: number;
  max_page_weight_bytes: number;
}

export const DEFAULT_THRESHOLDS: Readonly<CheckThresholds> = Object.freeze({
  title_min_chars: 10,
  title_max_chars: 60,
  meta_description_min_chars: 50,
  meta_description_max_chars: 160,
  url_max_chars: 115,
  max_links: 150,
  min_words: 300,
  min_text_html_ratio_percent: 10,
  max_load_time_ms: 2000,
  max_ttfb_ms: 800,
  max_page_bytes: 330_000,
  max_http_requests: 50,
  max_dom_elements: 1500,
  min_hsts_max_age_s: 31_536_000,
  max_inline_css: 20,
  max_lcp_ms: 2500,
  max_cls: 0.1,
  max_tbt_ms: 200,
  max_fcp_ms: 1800,
  // 1,600 KiB
  max_page_weight_bytes: 1_638_400,
});
