// Vocabulary: the brands the generated projects are about. A mention talks about a topic of its
// own project, in its own language: a phone maker's mentions talk about batteries and cameras, a
// bank's about mortgages and account fees. Projects created through the API (no template) talk
// about topics any brand has: customer service, prices, …

import type { TextLanguage } from './languages.ts';

/** Per language, what a project's mentions talk about. */
export type Topics = Record<TextLanguage, string[]>;

/** A project the generator seeds (numbered repeats once all six are taken). */
export interface ProjectTemplate {
	name: string;
	query: string;
	/** Every phrase of the query a mention may hold (the project's display keywords). */
	keywords: string[];
	/** The names people write: each matches the query on its own. */
	names: string[];
	competitor: string;
	/** What people say about this project, per language: noun phrases without an article. */
	topics: Topics;
	communities: Communities;
}

/** Where mentions of a project are posted, besides the social networks. */
export interface Communities {
	subreddits: string[];
	forums: string[];
	blogs: string[];
	reviews: string[];
}

export const PROJECT_TEMPLATES: ProjectTemplate[] = [
	{
		name: 'Acme Mobile',
		query: '"acme mobile" OR acme OR acmephone*',
		keywords: ['Acme', 'Acme Mobile', 'AcmePhone', 'AcmePhone 12', 'acmephones'],
		names: ['Acme', 'Acme Mobile', 'AcmePhone', 'AcmePhone 12'],
		competitor: 'Globex',
		topics: {
			en: ['battery life', 'camera', '5G coverage', 'latest software update', 'screen', 'customer service'],
			pl: ['bateria', 'aparat', 'zasięg 5G', 'najnowsza aktualizacja', 'ekran', 'obsługa klienta'],
			de: ['Akkulaufzeit', 'Kamera', '5G-Empfang', 'neuestes Update', 'Display', 'Kundenservice'],
			fr: ['autonomie de la batterie', 'appareil photo', 'couverture 5G', 'dernière mise à jour', 'écran', 'service client'],
			es: ['batería', 'cámara', 'cobertura 5G', 'última actualización', 'pantalla', 'atención al cliente'],
			it: ['batteria', 'fotocamera', 'copertura 5G', 'ultimo aggiornamento', 'schermo', 'assistenza clienti'],
			pt: ['bateria', 'câmera', 'cobertura 5G', 'última atualização', 'tela', 'atendimento ao cliente'],
			nl: ['batterijduur', 'camera', '5G-dekking', 'nieuwste update', 'scherm', 'klantenservice'],
			sv: ['batteritid', 'kamera', '5G-täckning', 'senaste uppdateringen', 'skärm', 'kundtjänst'],
			uk: ['батарея', 'камера', 'покриття 5G', 'останнє оновлення', 'екран', 'служба підтримки'],
		},
		communities: {
			subreddits: ['Android', 'smartphones', 'technology'],
			forums: ['forum.gsmspot.com', 'community.phonetalk.net'],
			blogs: ['techwithtom', 'mobile-insider'],
			reviews: ['www.trustpilot.com', 'play.google.com'],
		},
	},
	{
		name: 'Nordic Coffee Roasters',
		query: '"nordic coffee" OR nordicbrew* OR (nordic AND (espresso OR roast))',
		keywords: ['Nordic Coffee', 'NordicBrew', 'Nordic espresso', 'nordic coffee roasters'],
		names: ['Nordic Coffee', 'NordicBrew', 'Nordic Coffee Roasters'],
		competitor: 'Bean & Co',
		topics: {
			en: ['espresso blend', 'dark roast', 'fresh beans', 'café', 'coffee subscription', 'barista service'],
			pl: ['mieszanka espresso', 'stopień palenia', 'świeże ziarna', 'kawiarnia', 'subskrypcja kawy', 'obsługa w kawiarni'],
			de: ['Espressomischung', 'Röstung', 'frische Bohnen', 'Café', 'Kaffee-Abo', 'Service an der Bar'],
			fr: ['mélange espresso', 'torréfaction', 'grains frais', 'coffee shop', 'abonnement café', 'service au comptoir'],
			es: ['mezcla de espresso', 'tostado', 'granos frescos', 'cafetería', 'suscripción de café', 'atención en barra'],
			it: ['miscela espresso', 'tostatura', 'chicchi freschi', 'caffetteria', 'abbonamento caffè', 'servizio al banco'],
			pt: ['blend de espresso', 'torra', 'grãos frescos', 'cafeteria', 'assinatura de café', 'atendimento no balcão'],
			nl: ['espressomelange', 'branding', 'verse bonen', 'koffiebar', 'koffieabonnement', 'service aan de bar'],
			sv: ['espressoblandning', 'rostning', 'färska bönor', 'kafé', 'kaffeprenumeration', 'service i kaféet'],
			uk: ['еспресо-суміш', 'обсмаження', 'свіже зерно', "кав'ярня", 'підписка на каву', 'обслуговування баристи'],
		},
		communities: {
			subreddits: ['Coffee', 'espresso'],
			forums: ['community.homebrewers.net', 'forum.coffeegeeks.net'],
			blogs: ['kawa-i-ja', 'espresso-diaries'],
			reviews: ['www.tripadvisor.com', 'www.trustpilot.com', 'www.yelp.com'],
		},
	},
	{
		name: 'Vistula Bank',
		query: '"vistula bank" OR vistulabank OR (vistula AND (loan OR mortgage OR account))',
		keywords: ['Vistula Bank', 'VistulaBank', 'Vistula mortgage', 'Vistula account'],
		names: ['Vistula Bank', 'VistulaBank'],
		competitor: 'Baltic Credit',
		topics: {
			en: ['mortgage', 'account fees', 'mobile banking app', 'card payments', 'savings account', 'loan application'],
			pl: ['kredyt hipoteczny', 'opłaty za konto', 'aplikacja bankowa', 'płatności kartą', 'konto oszczędnościowe', 'wniosek kredytowy'],
			de: ['Baufinanzierung', 'Kontoführungsgebühren', 'Banking-App', 'Kartenzahlung', 'Sparkonto', 'Kreditantrag'],
			fr: ['prêt immobilier', 'frais de tenue de compte', 'application bancaire', 'paiement par carte', 'compte épargne', 'demande de crédit'],
			es: ['hipoteca', 'comisiones de la cuenta', 'app del banco', 'pagos con tarjeta', 'cuenta de ahorro', 'solicitud de préstamo'],
			it: ['mutuo', 'costi del conto', 'app della banca', 'pagamenti con carta', 'conto deposito', 'richiesta di prestito'],
			pt: ['financiamento imobiliário', 'tarifas da conta', 'app do banco', 'pagamentos com cartão', 'conta poupança', 'pedido de empréstimo'],
			nl: ['hypotheek', 'rekeningkosten', 'bankapp', 'kaartbetalingen', 'spaarrekening', 'leningaanvraag'],
			sv: ['bolån', 'kontoavgifter', 'bankappen', 'kortbetalningar', 'sparkonto', 'låneansökan'],
			uk: ['іпотека', 'комісія за рахунок', 'мобільний банкінг', 'оплата карткою', 'ощадний рахунок', 'заявка на кредит'],
		},
		communities: {
			subreddits: ['personalfinance', 'banking', 'poland'],
			forums: ['forum.money-talk.pl', 'community.savingsclub.net'],
			blogs: ['finanse-bez-tajemnic', 'moneysmart-diary'],
			reviews: ['www.opineo.pl', 'www.trustpilot.com', 'play.google.com'],
		},
	},
	{
		name: 'Orbit Airlines',
		query: '"orbit airlines" OR orbitair* NOT "orbit gum"',
		keywords: ['Orbit Airlines', 'OrbitAir', 'orbitair lounge'],
		names: ['Orbit Airlines', 'OrbitAir'],
		competitor: 'SkyJet',
		topics: {
			en: ['delayed flight', 'baggage allowance', 'online check-in', 'airport lounge', 'legroom', 'cabin crew'],
			pl: ['opóźniony lot', 'limit bagażu', 'odprawa online', 'saloniki na lotnisku', 'miejsce na nogi', 'załoga pokładowa'],
			de: ['Flugverspätung', 'Freigepäck', 'Online-Check-in', 'Lounge am Flughafen', 'Beinfreiheit', 'Kabinenpersonal'],
			fr: ['vol retardé', 'franchise bagages', 'enregistrement en ligne', "salon à l'aéroport", 'espace pour les jambes', 'équipage'],
			es: ['vuelo retrasado', 'equipaje permitido', 'check-in online', 'sala VIP del aeropuerto', 'espacio para las piernas', 'tripulación'],
			it: ['volo in ritardo', 'franchigia bagaglio', 'check-in online', 'lounge in aeroporto', 'spazio per le gambe', 'equipaggio'],
			pt: ['voo atrasado', 'franquia de bagagem', 'check-in online', 'sala VIP do aeroporto', 'espaço para as pernas', 'tripulação'],
			nl: ['vertraagde vlucht', 'bagagelimiet', 'online inchecken', 'lounge op de luchthaven', 'beenruimte', 'cabinepersoneel'],
			sv: ['försenat flyg', 'bagagegräns', 'incheckning online', 'lounge på flygplatsen', 'benutrymme', 'kabinpersonal'],
			uk: ['затримка рейсу', 'норма багажу', 'онлайн-реєстрація', 'бізнес-зала в аеропорту', 'місце для ніг', 'екіпаж'],
		},
		communities: {
			subreddits: ['travel', 'flights', 'europe'],
			forums: ['flyertalk-like.example.com', 'forum.travelers-lounge.net'],
			blogs: ['the-frequent-flyer', 'points-and-miles'],
			reviews: ['www.tripadvisor.com', 'www.trustpilot.com', 'www.airlinequality.com'],
		},
	},
	{
		name: 'GreenCart Delivery',
		query: 'greencart OR "green cart"',
		keywords: ['GreenCart', 'Green Cart', 'greencart courier'],
		names: ['GreenCart', 'Green Cart'],
		competitor: 'QuickBasket',
		topics: {
			en: ['delivery time', 'courier', 'fresh produce', 'packaging', 'delivery slot', 'refund for missing items'],
			pl: ['czas dostawy', 'kurier', 'świeże warzywa', 'opakowania', 'okno dostawy', 'zwrot za brakujące produkty'],
			de: ['Lieferzeit', 'Kurier', 'frisches Obst und Gemüse', 'Verpackung', 'Lieferfenster', 'Erstattung fehlender Artikel'],
			fr: ['délai de livraison', 'livreur', 'fruits et légumes frais', 'emballages', 'créneau de livraison', 'remboursement des articles manquants'],
			es: ['tiempo de entrega', 'repartidor', 'fruta y verdura fresca', 'embalaje', 'franja de entrega', 'reembolso de productos que faltan'],
			it: ['tempi di consegna', 'corriere', 'frutta e verdura fresca', 'imballaggi', 'fascia di consegna', 'rimborso dei prodotti mancanti'],
			pt: ['prazo de entrega', 'entregador', 'hortifrúti fresco', 'embalagens', 'janela de entrega', 'reembolso de itens faltantes'],
			nl: ['levertijd', 'bezorger', 'vers fruit en groente', 'verpakking', 'bezorgvenster', 'terugbetaling van ontbrekende producten'],
			sv: ['leveranstid', 'budet', 'färska grönsaker', 'förpackningar', 'leveransfönster', 'återbetalning för saknade varor'],
			uk: ['час доставки', "кур'єр", 'свіжі овочі', 'упаковка', 'інтервал доставки', 'повернення коштів за відсутні товари'],
		},
		communities: {
			subreddits: ['groceries', 'mealprep', 'europe'],
			forums: ['forum.zakupy-online.pl', 'community.homecooks.net'],
			blogs: ['annareviews', 'fresh-at-home'],
			reviews: ['www.trustpilot.com', 'play.google.com', 'www.opineo.pl'],
		},
	},
	{
		name: 'Helios Energy',
		query: '"helios energy" OR heliossolar OR (helios AND (solar OR tariff))',
		keywords: ['Helios Energy', 'HeliosSolar', 'Helios solar', 'Helios tariff'],
		names: ['Helios Energy', 'HeliosSolar'],
		competitor: 'Volta Power',
		topics: {
			en: ['solar panels', 'electricity tariff', 'energy bill', 'installation', 'heat pump', 'smart meter'],
			pl: ['panele fotowoltaiczne', 'taryfa za prąd', 'rachunek za prąd', 'montaż instalacji', 'pompa ciepła', 'inteligentny licznik'],
			de: ['Solaranlage', 'Stromtarif', 'Stromrechnung', 'Installation', 'Wärmepumpe', 'Smart Meter'],
			fr: ['panneaux solaires', "tarif d'électricité", "facture d'énergie", 'installation', 'pompe à chaleur', 'compteur intelligent'],
			es: ['paneles solares', 'tarifa eléctrica', 'factura de la luz', 'instalación', 'bomba de calor', 'contador inteligente'],
			it: ['pannelli solari', 'tariffa elettrica', 'bolletta della luce', 'installazione', 'pompa di calore', 'contatore intelligente'],
			pt: ['painéis solares', 'tarifa de energia', 'conta de luz', 'instalação', 'bomba de calor', 'medidor inteligente'],
			nl: ['zonnepanelen', 'energietarief', 'energierekening', 'installatie', 'warmtepomp', 'slimme meter'],
			sv: ['solpaneler', 'elavtal', 'elräkning', 'installation', 'värmepump', 'smart elmätare'],
			uk: ['сонячні панелі', 'тариф на електроенергію', 'рахунок за світло', 'монтаж', 'тепловий насос', 'розумний лічильник'],
		},
		communities: {
			subreddits: ['solar', 'energy', 'heatpumps'],
			forums: ['forum.fotowoltaika-info.pl', 'community.solar-owners.net'],
			blogs: ['green-home-diary', 'energy-explained'],
			reviews: ['www.trustpilot.com', 'www.opineo.pl'],
		},
	},
];

/** Topics of a project created through the API: what people say about any brand. */
export const GENERIC_TOPICS: Topics = {
	en: ['customer service', 'prices', 'website', 'support team', 'latest announcement', 'newsletter'],
	pl: ['obsługa klienta', 'ceny', 'strona internetowa', 'infolinia', 'najnowsze ogłoszenie', 'newsletter'],
	de: ['Kundenservice', 'Preise', 'Website', 'Support-Team', 'neueste Ankündigung', 'Newsletter'],
	fr: ['service client', 'prix', 'site web', 'équipe support', 'dernière annonce', 'newsletter'],
	es: ['atención al cliente', 'precios', 'página web', 'equipo de soporte', 'último anuncio', 'boletín'],
	it: ['assistenza clienti', 'prezzi', 'sito web', 'team di supporto', 'ultimo annuncio', 'newsletter'],
	pt: ['atendimento ao cliente', 'preços', 'site', 'equipe de suporte', 'último anúncio', 'newsletter'],
	nl: ['klantenservice', 'prijzen', 'website', 'supportteam', 'laatste aankondiging', 'nieuwsbrief'],
	sv: ['kundtjänst', 'priser', 'webbplats', 'supportteam', 'senaste nyheten', 'nyhetsbrev'],
	uk: ['служба підтримки', 'ціни', 'вебсайт', 'команда підтримки', 'останнє оголошення', 'розсилка'],
};
export const GENERIC_COMMUNITIES: Communities = {
	subreddits: ['europe', 'AskReddit'],
	forums: ['forum.consumer-voice.net'],
	blogs: ['annareviews'],
	reviews: ['www.trustpilot.com'],
};
